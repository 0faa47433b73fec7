import { sha256 } from '../../crypto/secrets.ts';
import { errors } from '../../errors.ts';
import { tokenForSubject } from '../../organizations/active-organization.ts';
import { isReplacedClientToken } from '../../store/clients.ts';
import { isSignedIn } from '../../store/sessions.ts';
import {
  organizationChoice,
  tokenSubjectByClientToken,
  type TokenOrganizationChoice,
} from '../../store/token-subjects.ts';
import type { FapiReadRoute, FapiRoute } from '../context.ts';
import { field, has } from '../form.ts';
import { loadSignedInSession } from './load-session.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /client/sessions/:id/tokens — a fresh 60 s session token, returned bare (clerk-js reads it so).
 * The hot path: one query reads the browser's client, the session, its user and the organisation with the
 * user's membership, with no transaction and no lock; the session's activity is written later, in bulk
 * (sessions/activity-batch.ts). Every check reads the stored state of that one instant: a session ended,
 * revoked or expired, or a membership removed, shows in the next token.
 */
export const createTokenRoute: FapiReadRoute = {
  method: 'POST',
  path: '/client/sessions/:id/tokens',
  auth: 'session',
  permission: null,
  input: { body: formInput({ organization_id: 'text' }) },
  async read(req) {
    // clerk-js names the organisation it wants ("" = personal workspace); without it, the session's own.
    const organization: TokenOrganizationChoice = has(req.body, 'organization_id')
      ? organizationChoice(field(req.body, 'organization_id') ?? null)
      : { session: true };
    const found = req.clientToken
      ? await tokenSubjectByClientToken(
          req.deps.db,
          sha256(req.clientToken),
          req.params.id!,
          organization,
          req.deps.billing.catalogue() !== null,
        )
      : { client: false, subject: null };
    // A credential replaced by a rotation is refused as on every other route (see plugin.ts), not taken
    // for a browser without a client.
    if (req.clientToken && !found.client && (await isReplacedClientToken(req.deps.db, req.clientToken))) {
      throw errors.clientCredentialReplaced();
    }
    const subject = found.subject;
    if (!subject || !isSignedIn(subject.session, req.now)) throw errors.notFound('session');
    req.deps.activity.record({
      sessionId: subject.session.id,
      userId: subject.session.user_id,
      at: req.now,
      request: { ip: req.ip, userAgent: req.userAgent },
    });
    const jwt = await tokenForSubject(req.deps, subject, { azp: req.origin, now: req.now });
    return { bare: { object: 'token', jwt } };
  },
};

/** JWT templates are not offered by this instance. */
export const createTemplateTokenRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sessions/:id/tokens/:template',
  auth: 'session',
  permission: null,
  input: { body: formInput({ organization_id: 'text' }) },
  async handler(ctx) {
    await loadSignedInSession(ctx, ctx.params.id!);
    throw errors.notFound('JWT template');
  },
};
