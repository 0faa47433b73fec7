import { ClerkError, errors } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { MAX_REDIRECT_URLS, parseRedirectUrl, redirectUrlJSON } from '../../redirect-urls/redirect-url.ts';
import {
  deleteRedirectUrl,
  findRedirectUrl,
  insertRedirectUrl,
  listRedirectUrls,
} from '../../store/identifier-lists.ts';
import type { BapiRoute } from '../route.ts';
import { queryFlag } from '../request-input.ts';
import { jsonInput, queryInput } from '../json-input.ts';

/**
 * Backend API: the instance's allowed redirect URLs (`@clerk/backend` 2.10.1's `redirectUrls`). A URL
 * listed here is allowed as a Frontend API redirect target besides the instance's own origins
 * (fapi/redirect-params.ts); deleting it disallows it again. The list is the bare array, or
 * `{data, total_count}` with `paginated=true` as the SDK asks.
 */

const PATH = '/v1/redirect_urls';

export const redirectUrlRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: PATH,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ paginated: 'flag' }) },
    async handler(req, deps) {
      const paginated = queryFlag(req.query, 'paginated');
      const data = (await listRedirectUrls(deps.db)).map(redirectUrlJSON);
      return paginated ? { data, total_count: data.length } : data;
    },
  },
  {
    method: 'GET',
    path: `${PATH}/:id`,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const row = await findRedirectUrl(deps.db, req.params.id!);
      if (!row) throw errors.notFound('redirect url');
      return redirectUrlJSON(row);
    },
  },
  {
    method: 'POST',
    path: PATH,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ url: 'string' }) },
    async handler(req, deps) {
      const raw = req.fields.string('url');
      if (!raw) throw errors.paramMissing('url');
      const url = parseRedirectUrl(raw);
      return deps.db.transaction(async (tx) => {
        if ((await listRedirectUrls(tx)).length >= MAX_REDIRECT_URLS) {
          throw errors.paramValueInvalid(
            'url',
            `An instance allows at most ${MAX_REDIRECT_URLS} redirect URLs; delete one first.`,
          );
        }
        const row = await insertRedirectUrl(tx, { id: newId('ru'), url, now: deps.clock() });
        if (!row) {
          throw new ClerkError(
            422,
            'duplicate_record',
            'duplicate record',
            'This redirect URL is already allowed.',
            {
              param_name: 'url',
            },
          );
        }
        return redirectUrlJSON(row);
      });
    },
  },
  {
    method: 'DELETE',
    path: `${PATH}/:id`,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const id = req.params.id!;
      if (!(await deleteRedirectUrl(deps.db, id))) throw errors.notFound('redirect url');
      return { object: 'redirect_url', id, deleted: true };
    },
  },
];
