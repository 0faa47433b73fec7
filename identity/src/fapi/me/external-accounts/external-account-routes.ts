import { errors } from '../../../errors.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { enabledSocialProvider, type SocialProvider } from '../../../social/providers.ts';
import {
  clearConnectionError,
  deleteExternalAccount,
  findOwnExternalAccount,
  insertPendingExternalAccount,
} from '../../../store/connected-accounts.ts';
import { touchUser } from '../../../store/user-profile.ts';
import type { FapiContext, FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { OAUTH_STATE_TTL_MS } from '../../oauth/start-external-verification.ts';
import { assertRedirectParams } from '../../redirect-params.ts';
import { refusedToActors } from '../actor-guard.ts';
import { currentSession } from '../me-session.ts';
import { otherWayToSignIn } from './other-way-to-sign-in.ts';
import { additionalScopes, connectionRedirectUrl, startConnection } from './start-connection.ts';
import { formInput } from '../../form-input.ts';

/** The instance's enabled provider for `strategy` (an `oauth_*` strategy); refused otherwise. */
function connectableProvider(ctx: FapiContext, strategy: string | undefined): SocialProvider {
  if (strategy === undefined) throw errors.paramMissing('strategy');
  const provider = strategy.startsWith('oauth_')
    ? enabledSocialProvider(ctx.deps.settings.settings.social, strategy)
    : null;
  if (!provider) {
    throw errors.paramValueInvalid(
      'strategy',
      `The verification strategy "${strategy}" is not enabled for this application.`,
    );
  }
  return provider;
}

const rateLimits: FapiRoute['rateLimits'] = (req) => [
  { key: `external_account_connect:ip:${req.ip}`, limit: 20, windowSeconds: 60 },
];

/**
 * POST /me/external_accounts — `user.createExternalAccount({strategy, redirectUrl, additionalScopes})`
 * (Connected accounts → Connect account). The account starts `unverified`, naming nobody; clerk-js goes
 * to the provider's URL in its verification, and the callback completes it (oauth/connect-account-callback.ts).
 */
const createExternalAccountRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/external_accounts',
  auth: 'session',
  permission: null,
  input: { body: formInput({ strategy: 'enum', redirect_url: 'url', additional_scope: 'text' }) },
  rateLimits,
  async handler(ctx) {
    const session = await currentSession(ctx);
    const provider = connectableProvider(ctx, field(ctx.body, 'strategy'));
    await assertRedirectParams(ctx.tx, ctx.body, ctx.deps);
    const redirectUrl = connectionRedirectUrl(ctx);
    const scopes = [...new Set([...provider.scopes, ...additionalScopes(ctx.body)])];
    await requireReverification(ctx, session);
    const account = await insertPendingExternalAccount(ctx.tx, {
      userId: session.user_id,
      provider: provider.strategy,
      expireAt: new Date(ctx.now.getTime() + OAUTH_STATE_TTL_MS),
      now: ctx.now,
    });
    await touchUser(ctx.tx, session.user_id, ctx.now);
    return startConnection(ctx, session, account, provider, scopes, redirectUrl);
  },
});

/**
 * PATCH /me/external_accounts/:id/reauthorize — `externalAccount.reauthorize({additionalScopes,
 * redirectUrl})` (the "Reconnect" link when the app asks for scopes the account has not granted): the
 * provider again, for the scopes granted so far, the provider's own and the additional ones. The account
 * stays as it is until the callback; the provider must answer for the same person.
 */
const reauthorizeExternalAccountRoute: FapiRoute = refusedToActors({
  method: 'PATCH',
  path: '/me/external_accounts/:id/reauthorize',
  auth: 'session',
  permission: null,
  input: { body: formInput({ redirect_url: 'url', additional_scope: 'text' }) },
  rateLimits,
  async handler(ctx) {
    const session = await currentSession(ctx);
    const account = await findOwnExternalAccount(ctx.tx, session.user_id, ctx.params.id!);
    if (!account) throw errors.notFound('external account');
    const provider = connectableProvider(ctx, account.provider);
    await assertRedirectParams(ctx.tx, ctx.body, ctx.deps);
    const redirectUrl = connectionRedirectUrl(ctx);
    const granted = account.approved_scopes.split(/\s+/).filter(Boolean);
    const scopes = [...new Set([...provider.scopes, ...granted, ...additionalScopes(ctx.body)])];
    await requireReverification(ctx, session);
    await clearConnectionError(ctx.tx, account.id, ctx.now);
    return startConnection(ctx, session, account, provider, scopes, redirectUrl);
  },
});

/**
 * DELETE /me/external_accounts/:id — Connected accounts → Remove. The account and its tokens go; the
 * provider's account may then be connected again, by this user or another. Never the user's last way to
 * sign in: a verified account goes only while another remains (`identification_deletion_failed`, Clerk's
 * answer to removing the last identification, which <UserProfile/> shows on the form).
 */
const deleteExternalAccountRoute: FapiRoute = refusedToActors({
  method: 'DELETE',
  path: '/me/external_accounts/:id',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const account = await findOwnExternalAccount(ctx.tx, session.user_id, ctx.params.id!);
    if (!account) throw errors.notFound('external account');
    await requireReverification(ctx, session);
    if (
      account.verification_status === 'verified' &&
      !(await otherWayToSignIn(ctx, session.user_id, account.id))
    ) {
      throw errors.identificationDeletionFailed();
    }
    await deleteExternalAccount(ctx.tx, account.id);
    await touchUser(ctx.tx, session.user_id, ctx.now);
    return { response: { object: 'external_account', id: account.id, deleted: true } };
  },
});

/** The current user's connected accounts (`/me/external_accounts` …), as <UserProfile/> manages them. */
export const externalAccountRoutes: FapiRoute[] = [
  createExternalAccountRoute,
  reauthorizeExternalAccountRoute,
  deleteExternalAccountRoute,
];
