import { endSessionsOfClient } from '../../store/sessions.ts';
import type { FapiContext, FapiRoute } from '../context.ts';
import { formInput } from '../form-input.ts';

/** GET /client — `{response: null}` for a browser we do not know yet; never a 4xx (that would break load()). */
export const getClientRoute: FapiRoute = {
  method: 'GET',
  path: '/client',
  auth: 'client',
  permission: null,
  input: { query: formInput() },
  // Every page load asks for it: no transaction, and the client row is read once.
  readOnly: true,
  async handler(ctx) {
    return ctx.client ? { clientAsResponse: true } : { response: null };
  },
};

/** PUT /client — `Client.create()`. */
export const putClientRoute: FapiRoute = {
  method: 'PUT',
  path: '/client',
  auth: 'client',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    await ctx.ensureClient();
    return { clientAsResponse: true };
  },
};

async function signOutEverywhere(ctx: FapiContext, clearAttempts: boolean) {
  if (!ctx.client) return { response: null };
  await endSessionsOfClient(ctx.tx, ctx.client.id, ctx.now);
  await ctx.updateClient(
    clearAttempts
      ? { last_active_session_id: null, sign_in_id: null, sign_up_id: null }
      : { last_active_session_id: null },
  );
  ctx.signInStateChanged();
  ctx.rotateClientCredential(ctx.client.id);
  return { clientAsResponse: true } as const;
}

/** DELETE /client/sessions — sign out of every session (UserButton "Sign out"). */
export const deleteClientSessionsRoute: FapiRoute = {
  method: 'DELETE',
  path: '/client/sessions',
  auth: 'client',
  permission: null,
  input: { body: formInput() },
  handler: (ctx) => signOutEverywhere(ctx, false),
};

/** DELETE /client — sign out and forget the in-progress attempts. */
export const deleteClientRoute: FapiRoute = {
  method: 'DELETE',
  path: '/client',
  auth: 'client',
  permission: null,
  input: { body: formInput() },
  handler: (ctx) => signOutEverywhere(ctx, true),
};
