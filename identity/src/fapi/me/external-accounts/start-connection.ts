import { errors } from '../../../errors.ts';
import { externalAccountJSON } from '../../../serializers/external-account.ts';
import type { SocialProvider } from '../../../social/providers.ts';
import type { ExternalAccountRow } from '../../../store/external-accounts.ts';
import type { SessionRow } from '../../../store/rows.ts';
import { emailAddressesOf } from '../../../store/users.ts';
import type { FapiContext } from '../../context.ts';
import { field, type FormBody } from '../../form.ts';
import { redirectToProvider } from '../../oauth/start-external-verification.ts';

/** An RFC 6749 scope token (printable ASCII without space, `"` or `\`). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/;
/** More than any provider's consent screen lists. */
const MAX_ADDITIONAL_SCOPES = 30;

/**
 * The scopes asked for besides the provider's own: clerk-js sends `additional_scope` once per scope
 * (`additionalScopes` of createExternalAccount / reauthorize); `additional_scope[]` and
 * `additional_scopes`, space- or comma-separated, are read too.
 */
export function additionalScopes(body: FormBody): string[] {
  const found: string[] = [];
  for (const name of ['additional_scope', 'additional_scope[]', 'additional_scopes']) {
    const raw = body[name];
    for (const value of Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) {
      found.push(...value.split(/[\s,]+/).filter(Boolean));
    }
  }
  const scopes = [...new Set(found)];
  if (scopes.length > MAX_ADDITIONAL_SCOPES || !scopes.every((s) => SCOPE_TOKEN.test(s))) {
    throw errors.paramValueInvalid('additional_scope', 'additional_scope must be a list of OAuth scopes.');
  }
  return scopes;
}

/** `redirect_url`, where the browser goes after the provider (checked against the allowed origins). */
export function connectionRedirectUrl(ctx: FapiContext): string {
  const redirectUrl = field(ctx.body, 'redirect_url');
  if (redirectUrl === undefined) throw errors.paramMissing('redirect_url');
  return redirectUrl;
}

/**
 * Starts the redirect that connects (or reauthorizes) `account` for the session's user: a fresh state
 * (hashed, bound to this browser's client, the session and the account), nonce and PKCE verifier, and
 * the account's JSON with the `unverified` verification and the provider's URL that clerk-js goes to.
 */
export async function startConnection(
  ctx: FapiContext,
  session: SessionRow,
  account: ExternalAccountRow,
  provider: SocialProvider,
  scopes: string[],
  redirectUrl: string,
): Promise<{ response: unknown }> {
  const { url, expireAt } = await redirectToProvider(
    ctx,
    { ...provider, scopes },
    {
      client_id: ctx.client!.id,
      attempt_kind: 'connect_account',
      attempt_id: account.id,
      session_id: session.id,
      scopes: scopes.join(' '),
      redirect_url: redirectUrl,
      action_complete_redirect_url: null,
    },
  );
  const emails = (await emailAddressesOf(ctx.tx, [session.user_id])).get(session.user_id) ?? [];
  const json = externalAccountJSON(account, emails);
  return {
    response: {
      ...json,
      verification: {
        ...json.verification,
        status: 'unverified',
        strategy: provider.strategy,
        expire_at: expireAt.getTime(),
        external_verification_redirect_url: url,
        error: null,
      },
    },
  };
}
