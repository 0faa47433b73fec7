import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createClerkClient, type ClerkClient } from '@clerk/backend';
import Fastify, { type FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { BAPI_PATH } from '../../src/app.ts';
import { registerProductApi } from '../../src/api/product-api.ts';
import type { ApiDeps } from '../../src/api/deps.ts';
import { Authenticator, type AuthenticatorOptions } from '../../src/auth/authenticate.ts';
import { sessionToken, signUpUser, type ApiBody, type EmbeddedServer, type User } from './embedded-server.ts';

/**
 * People and organisations on the real embedded provider, for the product API's tests: real sign-ups,
 * real memberships, real session tokens, and the Backend API through @clerk/backend.
 */

/** @clerk/backend's client on the embedded provider's Backend API, as the product server holds it. */
export function backendApi(server: EmbeddedServer): ClerkClient {
  const identity = server.app.identity;
  assert.ok(identity, 'the embedded provider runs');
  return createClerkClient({ secretKey: identity.secretKey, apiUrl: `${server.origin}${BAPI_PATH}` });
}

/** A user with a name of their own (the provider's, read back through the Backend API by /api/me). */
export async function namedUser(
  server: EmbeddedServer,
  label: string,
  firstName: string,
  lastName: string | null,
): Promise<User> {
  const user = await signUpUser(server, label);
  // As <UserProfile/> does: the user names themselves through the Frontend API.
  const named = await user.browser.call('PATCH', '/me', { first_name: firstName, last_name: lastName ?? '' });
  assert.equal(named.status, 200, JSON.stringify(named.body?.errors));
  return user;
}

export interface Team {
  admin: User;
  vciso: User;
  member: User;
}

export interface Organization {
  id: string;
  slug: string;
  name: string;
}

/** A new organisation created by the team's admin, with its vCISO and member added (FAPI, as clerk-js). */
export async function teamOrganization(
  server: EmbeddedServer,
  team: Team,
  label: string,
): Promise<Organization> {
  const name = `${label} ${randomBytes(3).toString('hex')}`;
  const created = await team.admin.browser.call('POST', '/organizations', { name });
  assert.equal(created.status, 200, JSON.stringify(created.body?.errors));
  const organization = created.body.response;
  for (const [user, role] of [
    [team.vciso, 'org:vciso'],
    [team.member, 'org:member'],
  ] as const) {
    const added = await team.admin.browser.call('POST', `/organizations/${organization.id}/memberships`, {
      user_id: user.userId,
      role,
    });
    assert.equal(added.status, 200, JSON.stringify(added.body?.errors));
  }
  return { id: organization.id, slug: organization.slug, name };
}

/** The organisation as the provider stores it: its public metadata and when it last changed. */
export async function storedOrganization(
  server: EmbeddedServer,
  organizationId: string,
): Promise<{ publicMetadata: Record<string, unknown>; updatedAt: string }> {
  const [row] = await server.db.query<{ public_metadata: unknown; updated_at: Date }>(
    'SELECT public_metadata, updated_at FROM organizations WHERE id = $1',
    [organizationId],
  );
  assert.ok(row, `organisation ${organizationId} is stored`);
  const metadata =
    typeof row.public_metadata === 'string' ? JSON.parse(row.public_metadata) : row.public_metadata;
  return { publicMetadata: metadata ?? {}, updatedAt: new Date(row.updated_at).toISOString() };
}

/**
 * The product API in a Fastify instance of the test's own (so a test can add hooks or routes), with
 * the same dependencies the server gives it: @clerk/backend verifying real session tokens against the
 * embedded provider, and its Backend API client.
 */
export async function productApiOn(
  server: EmbeddedServer,
  extend: (api: FastifyInstance, deps: ApiDeps) => void = () => {},
  /** Authenticator options besides the instance's keys and URL (hosted mode's `jwtKey`, JWKS timing). */
  authOptions: Pick<AuthenticatorOptions, 'jwtKey' | 'jwksTiming'> = {},
): Promise<{ app: FastifyInstance; call: Call }> {
  const identity = server.app.identity;
  assert.ok(identity, 'the embedded provider runs');
  const authenticator = new Authenticator({
    publishableKey: identity.publishableKey,
    secretKey: identity.secretKey,
    apiUrl: `${server.origin}${BAPI_PATH}`,
    authorizedParties: [server.origin],
    ...authOptions,
  });
  const deps: ApiDeps = {
    authenticate: (req) => authenticator.authenticate(req),
    authenticateApiKey: (req) => authenticator.authenticateApiKey(req),
    clerk: authenticator.clerk,
    hierarchy: server.app.hierarchy,
  };
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  await app.register(
    async (api) => {
      registerProductApi(api, deps);
      extend(api, deps);
    },
    { prefix: '/api' },
  );
  await app.ready();
  const call: Call = async (token, method, url, body, { raw = false } = {}) => {
    const res = await app.inject({
      method,
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      payload: body === undefined ? undefined : raw ? (body as string) : JSON.stringify(body),
    });
    return { status: res.statusCode, headers: res.headers, body: res.body ? res.json() : null };
  };
  return { app, call };
}

export type Call = (
  token: string | null,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  options?: { raw?: boolean },
) => Promise<{ status: number; headers: Record<string, unknown>; body: ApiBody }>;

export { sessionToken };

/**
 * The claims of a genuine session token changed, signed again with the instance's own signing key: a
 * token the instance itself could have minted (as a session-token template changes what it mints), the
 * way to give the product API tokens with or without the profile claims whatever the provider puts.
 */
export async function resignedToken(
  server: EmbeddedServer,
  genuine: string,
  change: (claims: Record<string, unknown>) => void,
): Promise<string> {
  const identity = server.app.identity;
  assert.ok(identity, 'the embedded provider runs');
  const claims = JSON.parse(Buffer.from(genuine.split('.')[1]!, 'base64url').toString('utf8'));
  change(claims);
  const { kid, privateKey } = identity.deps.signingKey;
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey);
}

/** The session-token template's claims about the user (docs/session-token-claims.md). */
export const PROFILE_CLAIMS = ['email', 'first_name', 'last_name'] as const;

/**
 * Every request that reaches the embedded Backend API over HTTP (what @clerk/backend sends: the JWKS, users),
 * counted on the server's socket as it arrives: the real traffic, whoever sends it.
 */
export function backendApiRequests(server: EmbeddedServer): { paths: string[]; stop(): void } {
  const paths: string[] = [];
  const listener = (req: IncomingMessage) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (path === BAPI_PATH || path.startsWith(`${BAPI_PATH}/`)) paths.push(`${req.method} ${path}`);
  };
  server.app.fastify.server.on('request', listener);
  return { paths, stop: () => server.app.fastify.server.off('request', listener) };
}
