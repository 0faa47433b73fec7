import type { FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { oauthCallbackUrl } from './start-external-verification.ts';
import { formInput } from '../form-input.ts';

/** What a provider posts back (RFC 6749 §4.1.2 and §4.1.2.1, RFC 9207 `iss`); nothing else is carried. */
const CALLBACK_FIELDS = ['code', 'state', 'error', 'error_description', 'error_uri', 'iss'] as const;

/**
 * POST /v1/oauth_callback — `response_mode=form_post` providers (Apple) post `code` and `state` from their
 * own site. A cross-site POST carries none of our SameSite=Lax cookies (`__client`, `__clerk_db_jwt`), so
 * the browser's client, which the state is bound to, cannot be known here. As Clerk does, the POST only
 * sends the browser on to the GET form of the callback with the same fields: that is a top-level GET
 * navigation, which does carry the Lax cookies, and the GET route does everything else (the state checked
 * against the client, spent, the code exchanged). Nothing is read or written here, so the POST is exempt
 * from the origin guard (origins.ts); a forged one achieves no more than a link to the GET would.
 */
export const oauthCallbackFormPostRoute: FapiRoute = {
  method: 'POST',
  path: '/oauth_callback',
  auth: 'none',
  permission: null,
  input: { body: formInput({ state: 'token', code: 'token', error: 'text', iss: 'url' }) },
  rateLimits: (req) => [{ key: `oauth_callback_post:ip:${req.ip}`, limit: 30, windowSeconds: 60 }],
  readOnly: true,
  handler(ctx) {
    const target = new URL(oauthCallbackUrl(ctx.deps.fapiBase));
    for (const name of CALLBACK_FIELDS) {
      const value = field(ctx.body, name);
      if (value !== undefined) target.searchParams.set(name, value);
    }
    return Promise.resolve({ redirect: target.toString() });
  },
};
