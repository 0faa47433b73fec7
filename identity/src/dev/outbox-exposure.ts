import type { Identity } from '../identity.ts';
import { isLoopbackHost } from './loopback.ts';

/**
 * What to tell the operator at start when the development outbox (codes and links in clear) is on and
 * the server listens beyond this machine; null otherwise.
 */
export function outboxExposureWarning(identity: Identity, host: string): string | null {
  const outbox = identity.devOutbox || identity.deps.sms?.kind === 'outbox';
  if (!outbox || isLoopbackHost(host)) return null;
  return identity.deps.config.devOutboxPublic
    ? `The development outbox (/__dev/mail, /__dev/sms: sign-in and reset codes) is readable by anyone who ` +
        `reaches ${host} (IDENTITY_DEV_OUTBOX_PUBLIC=true). Unset it, or listen on HOST=localhost.`
    : `Listening on ${host} in development mode: the development outbox answers clients on this machine only ` +
        '(a reverse proxy here must send X-Forwarded-For). Serve real users with IDENTITY_MODE=production.';
}
