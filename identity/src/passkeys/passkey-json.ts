import type { PasskeyRow, PasskeySummary } from '../store/passkeys.ts';

const ms = (d: Date | null | undefined): number | null => (d ? d.getTime() : null);

/**
 * Clerk's PasskeyJSON. A passkey waiting for its credential carries the registration options as
 * `verification.nonce` (a JSON string) only in the answer that created it; a verified one has no nonce
 * (clerk-js parses any nonce it is given as creation options).
 */
export function passkeyJSON(row: PasskeySummary | PasskeyRow, nonce?: string) {
  const pending = 'challenge_expire_at' in row ? row.challenge_expire_at : null;
  return {
    object: 'passkey',
    id: row.id,
    name: row.name,
    verification: row.verified_at
      ? { object: 'verification', status: 'verified', strategy: 'passkey', attempts: null, expire_at: null }
      : {
          object: 'verification',
          status: 'unverified',
          strategy: 'passkey',
          attempts: null,
          expire_at: ms(pending),
          ...(nonce ? { nonce } : {}),
        },
    last_used_at: ms(row.last_used_at),
    created_at: ms(row.created_at),
    updated_at: ms(row.updated_at),
  };
}

/**
 * A name for a new passkey, from the browser that registered it ("Chrome on macOS"), as Clerk names
 * passkeys after where they were made; the user may rename it.
 */
export function passkeyNameFor(userAgent: string | null): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : null;
  const os = /iPhone|iPad/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Mac OS X|Macintosh/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux|CrOS/.test(ua)
            ? 'Linux'
            : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? 'Passkey';
}
