import { requireUser } from './require-user.ts';
import { errors } from '../../errors.ts';
import { usableAccessToken } from '../../social/provider-tokens.ts';
import {
  deleteExternalAccount,
  findOwnExternalAccount,
  verifiedExternalAccountsOf,
} from '../../store/connected-accounts.ts';
import type { BapiRoute } from '../route.ts';
import { deleteUserResourceRoute } from './delete-user-resource.ts';
import { queryInput } from '../json-input.ts';

/** `oauth_google` or `google` (@clerk/backend 2.10.1 always sends the prefix) → the stored strategy. */
const strategyOf = (provider: string) => (provider.startsWith('oauth_') ? provider : `oauth_${provider}`);

/**
 * Backend API: a user's provider tokens and external accounts, as @clerk/backend calls them.
 *
 * `users.getUserOauthAccessToken(userId, 'google')` → GET /v1/users/:id/oauth_access_tokens/oauth_google
 * ?paginated=true: one OauthAccessToken per verified account of that provider holding a token, the token
 * refreshed first when it has expired (an account whose token has expired and cannot be refreshed is left
 * out: it has nothing usable). `{data, total_count}` when paginated, else the bare array, as Clerk answers.
 *
 * `users.deleteUserExternalAccount({userId, externalAccountId})` → DELETE …/external_accounts/:eac:
 * DeletedObject; another user's account is 404, as one that does not exist.
 */
export const externalAccountRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/users/:id/oauth_access_tokens/:provider',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ paginated: 'flag' }) },
    async handler(req, deps) {
      const userId = req.params.id!;
      await requireUser(deps.db, userId);
      const strategy = strategyOf(req.params.provider!);
      // A provider this instance has never had (enabled or not) names nothing anyone could have connected.
      if (!Object.hasOwn(deps.settings.settings.social, strategy)) {
        throw errors.paramValueInvalid('provider', 'provider is not a social provider of this instance.');
      }
      const data: unknown[] = [];
      // Read without a transaction: a refresh asks the provider, and no connection is held meanwhile.
      for (const account of await verifiedExternalAccountsOf(deps.db, userId, strategy)) {
        const usable = await usableAccessToken(deps, account);
        if (!usable) continue;
        data.push({
          object: 'oauth_access_token',
          external_account_id: account.id,
          provider: account.provider,
          token: usable.token,
          public_metadata: {},
          label: null,
          scopes: account.approved_scopes.split(/\s+/).filter(Boolean),
          ...(usable.expiresAt ? { expires_at: usable.expiresAt.getTime() } : {}),
        });
      }
      return req.query.paginated === 'true' ? { data, total_count: data.length } : data;
    },
  },
  deleteUserResourceRoute({
    path: '/v1/users/:id/external_accounts/:resourceId',
    object: 'external_account',
    noun: 'external account',
    find: findOwnExternalAccount,
    remove: (tx, _userId, id) => deleteExternalAccount(tx, id),
  }),
];
