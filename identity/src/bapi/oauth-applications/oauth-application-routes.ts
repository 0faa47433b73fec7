import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { oauthApplicationJSON } from '../../oauth-provider/oauth-application-json.ts';
import {
  changeOAuthApplication,
  createOAuthApplication,
  removeOAuthApplication,
  rotateOAuthApplicationSecret,
  type OAuthApplicationInput,
} from '../../oauth-provider/oauth-applications.ts';
import { findOAuthApplication, listOAuthApplications } from '../../store/oauth-applications.ts';
import { jsonInput, queryInput } from '../json-input.ts';
import { queryString } from '../request-input.ts';
import type { BapiRequest, BapiRoute } from '../route.ts';

/**
 * Backend API: OAuth applications as @clerk/backend 2.10.1's `oauthApplications` calls them
 * (api/endpoints/OAuthApplicationsApi.ts): list, read, create, update, delete, rotate the secret. The
 * client secret is in the answer of create and rotate_secret only (and of an update that makes a public
 * application confidential); it is stored hashed. docs/oauth-provider.md.
 */

const FIELDS = jsonInput({
  name: 'string',
  redirect_uris: 'strings',
  scopes: 'string',
  public: 'boolean',
  consent_screen_enabled: 'boolean',
  client_uri: 'string',
  client_image_url: 'string',
});

function inputOf(req: BapiRequest): OAuthApplicationInput {
  const f = req.fields;
  return {
    name: f.string('name'),
    redirectUris: f.strings('redirect_uris'),
    scopes: f.string('scopes'),
    public: f.boolean('public'),
    consentScreenEnabled: f.boolean('consent_screen_enabled'),
    clientUri: f.string('client_uri'),
    logoUrl: f.string('client_image_url'),
  };
}

export const oauthApplicationRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/oauth_applications',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ limit: 'page', offset: 'page', order_by: 'enum' }) },
    async handler(req, deps) {
      const page = pageOf(req.query);
      const order = queryString(req.query, 'order_by') ?? '-created_at';
      const match = /^([+-]?)(created_at|name)$/.exec(order);
      if (!match)
        throw errors.paramValueInvalid('order_by', 'order_by must be created_at or name, with + or -.');
      const { rows, total } = await listOAuthApplications(
        deps.db,
        { column: match[2] as 'created_at' | 'name', descending: match[1] === '-' },
        page,
      );
      return { data: rows.map((row) => oauthApplicationJSON(row, deps.fapiBase)), total_count: total };
    },
  },
  {
    method: 'POST',
    path: '/v1/oauth_applications',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: FIELDS },
    async handler(req, deps) {
      const input = inputOf(req);
      const { row, secret } = await deps.db.transaction((tx) =>
        createOAuthApplication(tx, deps.keys.codePepper, input, deps.clock()),
      );
      return oauthApplicationJSON(row, deps.fapiBase, secret);
    },
  },
  {
    method: 'GET',
    path: '/v1/oauth_applications/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const row = await findOAuthApplication(deps.db, req.params.id!);
      if (!row) throw errors.notFound('oauth_application');
      return oauthApplicationJSON(row, deps.fapiBase);
    },
  },
  {
    method: 'PATCH',
    path: '/v1/oauth_applications/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: FIELDS },
    async handler(req, deps) {
      const input = inputOf(req);
      const { row, secret } = await deps.db.transaction((tx) =>
        changeOAuthApplication(tx, deps.keys.codePepper, req.params.id!, input, deps.clock()),
      );
      return oauthApplicationJSON(row, deps.fapiBase, secret);
    },
  },
  {
    method: 'DELETE',
    path: '/v1/oauth_applications/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const id = req.params.id!;
      await deps.db.transaction((tx) => removeOAuthApplication(tx, id));
      return { object: 'oauth_application', id, deleted: true };
    },
  },
  {
    method: 'POST',
    path: '/v1/oauth_applications/:id/rotate_secret',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const { row, secret } = await deps.db.transaction((tx) =>
        rotateOAuthApplicationSecret(tx, deps.keys.codePepper, req.params.id!, deps.clock()),
      );
      return oauthApplicationJSON(row, deps.fapiBase, secret);
    },
  },
];
