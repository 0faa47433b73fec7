/**
 * A better-auth peer for the API benchmark: better-auth 1.7.25 with e-mail + password, the
 * organization plugin and the jwt plugin, on the same database server as ours (or PGlite), served by
 * a real HTTP server, with the three requests that do the same work as ours.
 *
 * Like with like, on purpose:
 * - passwords are argon2id with our very parameters (m=19456, t=2, p=1 through @node-rs/argon2: our
 *   identity/src/crypto/passwords.ts itself), not better-auth's default scrypt, so the password
 *   sign-in ratio compares the two servers rather than two hash functions;
 * - session tokens are RS256 (RSA-2048), as ours and Clerk's are, not the plugin's default EdDSA;
 *   they carry the active organisation (id, slug, role, permissions) like ours;
 * - better-auth's own rate limiting is off (the benchmark raises ours too);
 * - the database is opened as ours is (see peer-database.ts).
 * The HTTP layer is node:http with better-auth's toNodeHandler (ours is Fastify): the lightest way
 * better-auth is served, so nothing on the peer's side is slowed down by the harness.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { toNodeHandler } from 'better-auth/node';
import { jwt } from 'better-auth/plugins/jwt';
import { organization } from 'better-auth/plugins/organization';
import { defaultRoles } from 'better-auth/plugins/organization/access';
import type { JSONWebKeySet } from 'jose';
import { hashPassword, verifyPassword } from '../../identity/src/crypto/passwords.ts';
import { meRoute, type PeerContext } from './me-route.ts';
import { openPeerDatabase, type PeerDatabaseChoice } from './peer-database.ts';

export interface PeerRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Peer {
  /** e.g. 'better-auth 1.7.25 (organization + jwt plugins)' */
  name: string;
  /** http://127.0.0.1:<port> — a real HTTP server autocannon can hit */
  origin: string;
  /** the same operation as our POST /__clerk/v1/client/sessions/{id}/tokens: mint a session JWT (jwt plugin) for a signed-in user with an active organisation */
  tokenMinting: PeerRequest;
  /** the same operation as our GET /api/me: a product route verifying the bearer JWT and loading the user */
  sessionCheck: PeerRequest;
  /** the same operation as our password sign-in: email + password → session (argon2id, our parameters) */
  passwordSignIn: PeerRequest;
  stop(): Promise<void>;
}

/** Pinned exactly in bench/package.json (better-auth does not export its package.json to read it). */
const VERSION = '1.7.25';
const EMAIL = 'bench-peer@example.com';
const PASSWORD = 'bench-password-123';

/** Starts the peer on the given database: the same PostgreSQL server as ours (its own schema), or PGlite. */
export async function startBetterAuthPeer(db: PeerDatabaseChoice): Promise<Peer> {
  const database = await openPeerDatabase(db);
  // The port comes first: it is better-auth's baseURL (trusted origin, JWT issuer and audience).
  let handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> = async (_req, res) => {
    res.writeHead(503).end();
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // The jwt plugin's payload reads the member row through better-auth's adapter: set once it exists.
    const own: { context?: Promise<PeerContext> } = {};
    const auth = betterAuth({
      baseURL: origin,
      basePath: '/api/auth',
      secret: randomBytes(32).toString('hex'),
      database: database.option,
      logger: { level: 'error' },
      telemetry: { enabled: false },
      rateLimit: { enabled: false },
      emailAndPassword: {
        enabled: true,
        password: {
          hash: hashPassword,
          verify: ({ hash, password }) => verifyPassword(hash, password),
        },
      },
      plugins: [
        organization(),
        jwt({
          jwks: { keyPairConfig: { alg: 'RS256', modulusLength: 2048 } },
          jwt: {
            // Long enough for one benchmark run: sessionCheck replays the token minted at start.
            expirationTime: '1h',
            definePayload: async ({ session }) => ({
              sid: session.id,
              ...(await organizationClaims(await own.context!, session.userId, session.activeOrganizationId)),
            }),
          },
        }),
      ],
    });
    const context: Promise<PeerContext> = (own.context = auth.$context);

    const { runMigrations } = await getMigrations(auth.options);
    await runMigrations();

    const authHandler = toNodeHandler(auth);
    let me: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null = null;
    handle = async (req, res) => {
      if (req.method === 'GET' && req.url === '/api/me' && me) return me(req, res);
      return authHandler(req, res);
    };

    // A signed-in user with an active organisation, made through the public endpoints.
    const json = { 'content-type': 'application/json', origin };
    const signUp = await call(origin, 'POST', '/api/auth/sign-up/email', json, {
      email: EMAIL,
      password: PASSWORD,
      name: 'Bench Peer',
    });
    const cookie = sessionCookie(signUp);
    const created = await call(
      origin,
      'POST',
      '/api/auth/organization/create',
      { ...json, cookie },
      {
        name: 'Bench Peer Org',
        slug: `bench-peer-${randomBytes(4).toString('hex')}`,
      },
    );
    const { id: organizationId } = (await created.json()) as { id: string };
    await call(origin, 'POST', '/api/auth/organization/set-active', { ...json, cookie }, { organizationId });
    const minted = await call(origin, 'GET', '/api/auth/token', { cookie, origin });
    const { token } = (await minted.json()) as { token: string };
    const jwks = (await (await call(origin, 'GET', '/api/auth/jwks', {})).json()) as JSONWebKeySet;
    me = meRoute({ jwks, issuer: origin, audience: origin, context });

    return {
      name: `better-auth ${VERSION} (organization + jwt plugins, ${database.kind})`,
      origin,
      tokenMinting: { method: 'GET', path: '/api/auth/token', headers: { cookie, origin } },
      sessionCheck: { method: 'GET', path: '/api/me', headers: { authorization: `Bearer ${token}` } },
      passwordSignIn: {
        method: 'POST',
        path: '/api/auth/sign-in/email',
        headers: json,
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      },
      async stop() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await database.close();
      },
    };
  } catch (err) {
    server.closeAllConnections();
    server.close();
    await database.close().catch(() => {});
    throw err;
  }
}

/**
 * Our tokens carry the active organisation's id, slug, the caller's role and its permissions
 * (org_id, org_slug, org_role, org_permissions); the peer puts the same in its JWT, read the way a
 * better-auth app would: the member and organisation rows, permissions from the role's statements.
 */
async function organizationClaims(ctx: PeerContext, userId: string, organizationId: unknown) {
  if (typeof organizationId !== 'string' || !organizationId) return {};
  const [member, org] = await Promise.all([
    ctx.adapter.findOne<{ role: string }>({
      model: 'member',
      where: [
        { field: 'organizationId', value: organizationId },
        { field: 'userId', value: userId },
      ],
    }),
    ctx.adapter.findOne<{ slug: string }>({
      model: 'organization',
      where: [{ field: 'id', value: organizationId }],
    }),
  ]);
  if (!member || !org) return {};
  const role = member.role as keyof typeof defaultRoles;
  const statements: Record<string, readonly string[]> = defaultRoles[role]?.statements ?? {};
  return {
    org_id: organizationId,
    org_slug: org.slug,
    org_role: `org:${member.role}`,
    org_permissions: Object.entries(statements).flatMap(([resource, actions]) =>
      actions.map((action) => `org:${resource}:${action}`),
    ),
  };
}

async function call(
  origin: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Response> {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`better-auth peer setup: ${method} ${path} answered ${res.status}`);
  return res;
}

/** The session cookie a sign-up or sign-in sets, as a Cookie header value. */
function sessionCookie(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('better-auth.session_token='));
  if (!set) throw new Error('better-auth peer setup: sign-up set no session cookie');
  return set.split(';')[0]!;
}
