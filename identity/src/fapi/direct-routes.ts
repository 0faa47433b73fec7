import { z } from '@app/contract';
import type { RouteHandlerMethod } from 'fastify';
import type { IdentityDeps } from '../deps.ts';
import type { RouteDeclaration } from '../http/route-declaration.ts';
import { organizationImage } from '../store/organizations.ts';
import { userImage } from '../store/user-images.ts';
import { environmentHandler } from './environment/environment-routes.ts';
import { imageHandler } from './images/image-route.ts';

/**
 * A Frontend API route Fastify serves itself, ahead of the router (fapi/plugin.ts): public reads that need
 * no client and no transaction, answered with their own headers (caching, content type). Declared like the
 * router's routes, so the suites reach them by the same table.
 */
export interface FapiDirectRoute extends RouteDeclaration {
  method: 'GET';
  auth: 'none';
  /** The Fastify handler, given the provider's dependencies. */
  handler: (deps: IdentityDeps) => RouteHandlerMethod;
}

/** The path of the neutral silhouette every user without an image gets (see below). */
export const AVATAR_PLACEHOLDER_PATH = '/avatars/avatar_placeholder.svg';

const DEFAULT_AVATAR_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#cbd5e1"/><circle cx="32" cy="25" r="11" fill="#f8fafc"/><path d="M12 58c2-12 10-18 20-18s18 6 20 18z" fill="#f8fafc"/></svg>`;

const byId = { params: z.object({ id: z.string() }) };

/** The routes under `/v1` that the plugin registers on Fastify directly; paths without the `/v1`. */
export const directRoutes: FapiDirectRoute[] = [
  // Hosted Clerk always gives users an image URL; ours is a neutral silhouette served from our origin.
  // Its name says `avatar_placeholder` because clerk-js offers "Remove" only for non-default images.
  {
    method: 'GET',
    path: AVATAR_PLACEHOLDER_PATH,
    auth: 'none',
    permission: null,
    input: {},
    handler: () => async (_req, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(DEFAULT_AVATAR_SVG),
  },
  // Every page load asks for it first: from memory, before the router and its transaction.
  {
    method: 'GET',
    path: '/environment',
    auth: 'none',
    permission: null,
    input: {},
    handler: environmentHandler,
  },
  {
    method: 'GET',
    path: '/images/organizations/:id',
    auth: 'none',
    permission: null,
    input: byId,
    handler: (deps) => imageHandler(deps, organizationImage) as RouteHandlerMethod,
  },
  {
    method: 'GET',
    path: '/images/users/:id',
    auth: 'none',
    permission: null,
    input: byId,
    handler: (deps) => imageHandler(deps, userImage) as RouteHandlerMethod,
  },
];
