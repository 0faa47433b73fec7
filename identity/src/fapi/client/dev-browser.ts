import { countClientCreation } from '../../abuse/client-creation.ts';
import { createClient } from '../../store/clients.ts';
import type { FapiRoute } from '../context.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /dev_browser — development keys on Clerk-style dev hosts identify the browser by a token in
 * `__clerk_db_jwt` instead of a cookie. We hand out a client token that the router accepts there.
 */
export const createDevBrowserRoute: FapiRoute = {
  method: 'POST',
  path: '/dev_browser',
  auth: 'dev_browser',
  permission: null,
  input: { body: formInput() },
  rateLimits: (req) => [{ key: `dev_browser:ip:${req.ip}`, limit: 30, windowSeconds: 60 }],
  async handler(ctx) {
    await countClientCreation(ctx, ctx.deps.config.clientCreationsPerIp, ctx.ip);
    const { token } = await createClient(ctx.tx, ctx.now);
    return { bare: { id: token } };
  },
};
