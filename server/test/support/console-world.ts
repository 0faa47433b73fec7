import assert from 'node:assert/strict';
import {
  sessionToken,
  signUpUser,
  signUpWithOrganization,
  startEmbeddedServer,
  type ApiBody,
  type EmbeddedServer,
  type User,
} from './embedded-server.ts';
import { enrolTotp } from './totp.ts';

/**
 * The people of the operator console's tests (docs/console.md), on the real server and its embedded
 * provider: two operators (one with a second factor, one without yet), an organisation's admin who is no
 * operator, and the user and organisation the operators act on.
 */

/** A user with an organisation of their own, of which they are the admin. */
export type OrganizationAdmin = User & { organizationId: string };

export interface ConsoleWorld {
  server: EmbeddedServer;
  /** An operator with a second factor (an authenticator app): the console serves them. */
  operator: User;
  /** An operator without a second factor yet: the console tells them to set one up. */
  enrolling: User;
  /** Another organisation's admin, no operator. */
  orgAdmin: OrganizationAdmin;
  /** The user, with their organisation, whom the operator acts on. */
  target: OrganizationAdmin;
  /** A product server GET as `user`, with no organisation active. */
  get(user: User, url: string): Promise<{ status: number; body: ApiBody }>;
  /** Sends each request as `bearer` and asserts it is refused as malformed (422 `invalid_request`). */
  refusesAsMalformed(bearer: string, requests: readonly ConsoleRequest[]): Promise<void>;
}

/** A console API request: its method, its URL and, for a POST, its body. */
export type ConsoleRequest = readonly [method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown];

/** A session token of `user`'s, with `organizationId` active (none by default). */
export function token(user: User, organizationId: string | null = null): Promise<string> {
  return sessionToken(user, organizationId);
}

/**
 * Starts the server and makes the console's people. The instance settings name both operators — the
 * one without a second factor by id or by (verified) address, as `enrollingBy` says — and hold `settings`
 * besides (webhook endpoints, API keys, billing…).
 */
export async function startConsoleWorld({
  databaseUrl,
  enrollingBy,
  settings = {},
}: {
  databaseUrl?: string;
  enrollingBy: 'userId' | 'email';
  settings?: Record<string, unknown>;
}): Promise<ConsoleWorld> {
  const server = await startEmbeddedServer({ databaseUrl });
  const operator = await signUpUser(server, 'operator');
  await enrolTotp(operator);
  const enrolling = await signUpUser(server, 'enrolling');
  const orgAdmin = await signUpWithOrganization(server, 'org-admin', 'Admin Org');
  const target = await signUpWithOrganization(server, 'target', 'Target Org');
  const instance = server.app.identity!.settings;
  await instance.set({
    ...instance.settings,
    console: { operators: [operator.userId, enrolling[enrollingBy]] },
    ...settings,
  });
  return {
    server,
    operator,
    enrolling,
    orgAdmin,
    target,
    get: async (user, url) => server.api(await token(user), 'GET', url),
    refusesAsMalformed: async (bearer, requests) => {
      for (const [method, url, body] of requests) {
        const res = await server.api(bearer, method, url, body);
        assert.equal(
          res.status,
          422,
          `${method} ${url} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`,
        );
        assert.equal(res.body.errors[0].code, 'invalid_request', url);
      }
    },
  };
}
