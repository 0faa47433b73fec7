import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from '@app/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errorBody, errors } from '../errors.ts';
import type { RouteDeclaration } from '../http/route-declaration.ts';
import { OAUTH_ROUTES } from './oidc-provider-instance.ts';

const DISCOVERY = '/.well-known/openid-configuration';
/** RFC 8414's name for the same metadata, which oidc-provider 8 does not serve itself. */
const AUTHORIZATION_SERVER_METADATA = '/.well-known/oauth-authorization-server';

/** oidc-provider reads its parameters itself (RFC 6749's forms and queries): declared as loose objects. */
const loose = z.looseObject({});
const route = (method: RouteDeclaration['method'], path: string, params?: z.ZodObject): RouteDeclaration => ({
  method,
  path,
  // The token endpoint's client credential, and the bearer access token of userinfo, are checked by
  // oidc-provider; none of these takes a Clerk credential.
  auth: 'none',
  permission: null,
  input: method === 'GET' ? { query: loose, ...(params ? { params } : {}) } : { body: loose },
});

/**
 * The authorization server's routes under the Frontend API's path (docs/oauth-provider.md), served by
 * oidc-provider: authorization (and its resume after the consent page), token, userinfo, introspection
 * (`token_info`, as Clerk names it), revocation, the keys, and the two discovery documents.
 */
export const oauthProviderRoutes: readonly RouteDeclaration[] = [
  route('GET', OAUTH_ROUTES.authorization),
  route('POST', OAUTH_ROUTES.authorization),
  route('GET', `${OAUTH_ROUTES.authorization}/:uid`, z.object({ uid: z.string() })),
  route('POST', OAUTH_ROUTES.token),
  route('GET', OAUTH_ROUTES.userinfo),
  route('POST', OAUTH_ROUTES.userinfo),
  route('POST', OAUTH_ROUTES.introspection),
  route('POST', OAUTH_ROUTES.revocation),
  route('GET', OAUTH_ROUTES.jwks),
  route('GET', DISCOVERY),
  route('GET', AUTHORIZATION_SERVER_METADATA),
];

/**
 * Hands the routes above to oidc-provider (a Koa application) with the raw request: Fastify reads no body
 * there. oidc-provider names its endpoints from the request, so the request is given the public origin
 * (X-Forwarded-Proto and -Host from PUBLIC_URL, whatever the client sent) and the Frontend API's path as
 * its mount point (`originalUrl`, as Express sets it).
 */
export async function registerOAuthProvider(
  app: FastifyInstance,
  fapiPath: string,
  publicUrl: string,
  provider: () => Promise<Provider>,
): Promise<void> {
  const { protocol, host } = new URL(publicUrl);
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    // Before the request is handed over (the provider failed to start): Clerk's envelope.
    scope.setErrorHandler((err, req, reply) => {
      req.log.error({ err: { message: (err as Error).message } }, 'oauth provider failed');
      return reply.code(500).send(errorBody(errors.internal()));
    });
    const handle = async (req: FastifyRequest, reply: FastifyReply) => {
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
    for (const r of oauthProviderRoutes) {
      scope.route({ method: r.method, url: `${fapiPath}${r.path}`, handler: handle });
    }
  });
}
