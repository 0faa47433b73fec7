import { sha256 } from '../../crypto/secrets.ts';
import { errors } from '../../errors.ts';
import { tokenForSubject } from '../../organizations/active-organization.ts';
import { isReplacedClientToken } from '../../store/clients.ts';
import { isSignedIn } from '../../store/sessions.ts';
import {
  organizationChoice,
  tokenSubjectByClientToken,
  type TokenOrganizationChoice,
  type TokenSubject,
} from '../../store/token-subjects.ts';
import { findJwtTemplateByName } from '../../store/jwt-templates.ts';
import { mintTemplateToken } from '../../jwt-templates/jwt-template.ts';
import type { FapiReadRequest, FapiReadRoute } from '../context.ts';
import { field, has } from '../form.ts';
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
    const subject = await signedInSubject(req);
    recordActivity(req, subject);
    const jwt = await tokenForSubject(req.deps, subject, { azp: req.origin, now: req.now });
    return { bare: { object: 'token', jwt } };
  },
};

/**
 * POST /client/sessions/:id/tokens/:template — clerk-js `session.getToken({ template })`: a token of the
 * instance's JWT template of that name (jwt-templates/jwt-template.ts), for the session's own user and
 * active organisation, read as the session token is (one query, no transaction) plus the template's row.
 * clerk-js sends no organisation with a template; one sent is honoured as on the session token's route.
 */
export const createTemplateTokenRoute: FapiReadRoute = {
  method: 'POST',
  path: '/client/sessions/:id/tokens/:template',
  auth: 'session',
  permission: null,
  input: { body: formInput({ organization_id: 'text' }) },
  async read(req) {
    const subject = await signedInSubject(req);
    const template = await findJwtTemplateByName(req.deps.db, req.params.template!);
    if (!template) throw errors.notFound('JWT template');
    recordActivity(req, subject);
    const jwt = await mintTemplateToken(req.deps, template, subject, { azp: req.origin, now: req.now });
    return { bare: { object: 'token', jwt } };
  },
};

/**
 * The signed-in session the path names, of the browser's own client, with what its token says: 404 for a
 * session of another client, an ended, revoked or expired one, or a browser without a client.
 */
async function signedInSubject(req: FapiReadRequest): Promise<TokenSubject> {
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
  return subject;
}

/** The session's activity, written later in bulk (sessions/activity-batch.ts). */
function recordActivity(req: FapiReadRequest, subject: TokenSubject): void {
  req.deps.activity.record({
    sessionId: subject.session.id,
    userId: subject.session.user_id,
    at: req.now,
    request: { ip: req.ip, userAgent: req.userAgent },
  });
}
