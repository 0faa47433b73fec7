import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from '@app/contract';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { IdentityDeps } from '../deps.ts';
import { ClerkError, errorBody, errors } from '../errors.ts';
import type { BesideFamily, BesideRoute, RouteDeclaration } from '../http/route-declaration.ts';
import { hit } from '../store/rate-limits.ts';
import { authorizedApplication, deleteRegistration, replaceRegistration } from './client-management.ts';
import {
  clientInformation,
  REGISTRATION_PATH,
  RegistrationError,
  registerApplication,
} from './dynamic-registration.ts';
import { DEFAULT_OAUTH_PROVIDER_SETTINGS } from './oauth-provider-settings.ts';
import { OAUTH_ROUTES } from './oidc-provider-instance.ts';

const DISCOVERY = '/.well-known/openid-configuration';
/** RFC 8414's name for the same metadata, which oidc-provider 8 does not serve itself. */
const AUTHORIZATION_SERVER_METADATA = '/.well-known/oauth-authorization-server';

/** oidc-provider reads its parameters itself (RFC 6749's forms and queries): declared as loose objects. */
const loose = z.looseObject({});
const route = (
  method: RouteDeclaration['method'],
  path: string,
  handler: BesideRoute['handler'],
  params?: z.ZodObject,
): BesideRoute => ({
  method,
  handler,
  path,
  // The token endpoint's client credential, and the bearer access token of userinfo, are checked by
  // oidc-provider; none of these takes a Clerk credential.
  auth: 'none',
  permission: null,
  input: {
    ...(method === 'GET' ? { query: loose } : { body: loose }),
    ...(params ? { params } : {}),
  },
});

/**
 * The authorization server's routes under the Frontend API's path (docs/oauth-provider.md), served by
 * oidc-provider: authorization (and its resume after the consent page), token, userinfo, introspection
 * (`token_info`, as Clerk names it), revocation, the keys, and the two discovery documents.
 */
export const oauthProviderRoutes: readonly BesideRoute[] = [
  route('GET', OAUTH_ROUTES.authorization, toProvider),
  route('POST', OAUTH_ROUTES.authorization, toProvider),
  route('GET', `${OAUTH_ROUTES.authorization}/:uid`, toProvider, z.object({ uid: z.string() })),
  route('POST', OAUTH_ROUTES.token, toProvider),
  route('GET', OAUTH_ROUTES.userinfo, toProvider),
  route('POST', OAUTH_ROUTES.userinfo, toProvider),
  route('POST', OAUTH_ROUTES.introspection, toProvider),
  route('POST', OAUTH_ROUTES.revocation, toProvider),
  route('GET', OAUTH_ROUTES.jwks, toProvider),
  route('GET', DISCOVERY, toProvider),
  route('GET', AUTHORIZATION_SERVER_METADATA, toProvider),
];

/**
 * RFC 7591 dynamic client registration, ours rather than oidc-provider's (its clients are the rows of
 * `oauth_applications`, made by the same checks as the Backend API's): answered only while the instance
 * settings allow it, 404 like an unknown path otherwise.
 */
export const registrationRoute: BesideRoute = route(
  'POST',
  REGISTRATION_PATH,
  (deps) => (req, reply) => handleRegistration(deps, req, reply),
);

/**
 * RFC 7592 client management, beside the registration and switched with it: the registration access token
 * answered at registration reads (GET), replaces (PUT) and deletes (DELETE) its application at
 * `/oauth/register/<client_id>`.
 */
const clientParams = z.object({ clientId: z.string() });
const managementRoute = (method: 'GET' | 'PUT' | 'DELETE') =>
  route(
    method,
    `${REGISTRATION_PATH}/:clientId`,
    (deps) => (req, reply) => handleManagement(deps, req, reply),
    clientParams,
  );
export const clientManagementRoutes: readonly BesideRoute[] = [
  managementRoute('GET'),
  managementRoute('PUT'),
  managementRoute('DELETE'),
];

/** A registration's JSON body: at most 64 KiB, more than any client's metadata. */
const REGISTRATION_BODY_LIMIT = 64 * 1024;
const REGISTRATION_WINDOW_SECONDS = 3600;

async function jsonOf(raw: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > REGISTRATION_BODY_LIMIT) throw new RegistrationError('invalid_client_metadata', 'Too large.');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new RegistrationError('invalid_client_metadata', 'The request body must be JSON.');
  }
}

/**
 * POST /oauth/register: off → 404 (nothing counted); on → one hit of the address's hourly count (refused
 * requests count too, so probing the checks costs as much as registering), then the metadata read and
 * the application made, or RFC 7591's error and nothing made.
 */
const refuseWith = (reply: FastifyReply, err: ClerkError) => {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(err.status).send(errorBody(err));
};

const registrationEnabled = (deps: IdentityDeps) =>
  (deps.settings.settings.oauthProvider ?? DEFAULT_OAUTH_PROVIDER_SETTINGS).dynamicClientRegistration;

async function handleRegistration(deps: IdentityDeps, req: FastifyRequest, reply: FastifyReply) {
  const settings = deps.settings.settings.oauthProvider ?? DEFAULT_OAUTH_PROVIDER_SETTINGS;
  const refuse = (err: ClerkError) => refuseWith(reply, err);
  if (!settings.dynamicClientRegistration) return refuse(errors.notFound('endpoint'));
  const wait = await hit(
    deps.db,
    {
      key: `oauth_register:ip:${req.ip}`,
      limit: settings.registrationsPerAddressPerHour,
      windowSeconds: REGISTRATION_WINDOW_SECONDS,
    },
    deps.clock(),
  );
  if (wait > 0) return refuse(errors.tooManyRequests(wait));
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  try {
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      throw new RegistrationError('invalid_client_metadata', 'The request body must be application/json.');
    }
    return reply.code(201).send(await registerApplication(deps, await jsonOf(req.raw)));
  } catch (err) {
    if (err instanceof RegistrationError) return reply.code(400).send(err.toJSON());
    throw err;
  }
}

const jsonBody = (req: FastifyRequest) => async () => {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new RegistrationError('invalid_client_metadata', 'The request body must be application/json.');
  }
  return jsonOf(req.raw);
};

/**
 * GET, PUT and DELETE /oauth/register/:clientId (RFC 7592): off → 404 as the registration; a missing or
 * wrong registration access token, another client's, an unknown client id or an operator's application
 * (which has no token) → 401 `invalid_token` alike; a bad replacement → RFC 7591's 400, nothing changed.
 * Nothing is counted: the token (256 bits) cannot be guessed.
 */
async function handleManagement(deps: IdentityDeps, req: FastifyRequest, reply: FastifyReply) {
  if (!registrationEnabled(deps)) return refuseWith(reply, errors.notFound('endpoint'));
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  const clientId = (req.params as { clientId: string }).clientId;
  const authorization = req.headers.authorization;
  const unauthorized = () =>
    reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').send({
      error: 'invalid_token',
      error_description: "The registration access token is missing, invalid, or not this client's.",
    });
  try {
    if (req.method === 'GET') {
      const found = await authorizedApplication(deps.db, deps.keys.codePepper, clientId, authorization);
      if (!found) return unauthorized();
      // The token it was read with is the current one (a read does not rotate it).
      return reply.send(clientInformation(deps.fapiBase, found.row, found.token));
    }
    if (req.method === 'PUT') {
      const replaced = await replaceRegistration(deps, clientId, authorization, jsonBody(req));
      return replaced ? reply.send(replaced) : unauthorized();
    }
    return (await deleteRegistration(deps, clientId, authorization))
      ? reply.code(204).send()
      : unauthorized();
  } catch (err) {
    if (err instanceof RegistrationError) return reply.code(400).send(err.toJSON());
    throw err;
  }
}

/**
 * Hands a request of the routes above to oidc-provider (a Koa application) with the raw request: Fastify
 * reads no body there. oidc-provider names its endpoints from the request, so the request is given the
 * public origin (X-Forwarded-Proto and -Host from PUBLIC_URL, whatever the client sent) and the Frontend
 * API's path as its mount point (`originalUrl`, as Express sets it).
 */
function toProvider(deps: IdentityDeps): RouteHandlerMethod {
  const { fapiPath, publicUrl } = deps.config;
  const provider = deps.oauthProvider;
  const { protocol, host } = new URL(publicUrl);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const callback = (await provider()).callback();
    const raw = req.raw as IncomingMessage & { originalUrl?: string };
    const url = raw.url ?? '/';
    raw.originalUrl = url;
    let inner = url.slice(fapiPath.length) || '/';
    if (inner.startsWith(AUTHORIZATION_SERVER_METADATA)) {
      inner = DISCOVERY + inner.slice(AUTHORIZATION_SERVER_METADATA.length);
      raw.originalUrl = `${fapiPath}${inner}`;
    }
    raw.url = inner;
    raw.headers['x-forwarded-proto'] = protocol.slice(0, -1);
    raw.headers['x-forwarded-host'] = host;
    reply.hijack();
    await callback(raw, reply.raw as ServerResponse);
  };
}

/**
 * The authorization server's family: Fastify reads no body (oidc-provider and the registration read the
 * raw request), and a failure before the request is handed over (the provider failed to start) is
 * answered in Clerk's envelope.
 */
export const oauthProtocolRoutes: readonly BesideFamily[] = [
  {
    name: 'oauth provider',
    scope: (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
      scope.setErrorHandler((err, req, reply) => {
        req.log.error({ err: { message: (err as Error).message } }, 'oauth provider failed');
        return reply.code(500).send(errorBody(errors.internal()));
      });
    },
    routes: [...oauthProviderRoutes, registrationRoute, ...clientManagementRoutes],
  },
];
