import { ClerkError, errors } from '../../errors.ts';
import { newId } from '../../ids.ts';
import {
  jwtTemplateFields,
  jwtTemplateJSON,
  MAX_JWT_TEMPLATES,
  type JwtTemplateInput,
} from '../../jwt-templates/jwt-template.ts';
import { pageOf } from '../../organizations/invitations.ts';
import {
  countJwtTemplates,
  deleteJwtTemplate,
  findJwtTemplate,
  insertJwtTemplate,
  listJwtTemplates,
  updateJwtTemplate,
} from '../../store/jwt-templates.ts';
import { jsonInput, queryInput } from '../json-input.ts';
import { pagedAnswer } from '../paged-answer.ts';
import type { BapiRequest, BapiRoute } from '../route.ts';

/**
 * Backend API: JWT templates (`@clerk/backend` 2.10.1's `jwtTemplates`: list, get, create, update,
 * delete). Tokens are minted from them by the sessions' token routes (Frontend and Backend API); the
 * rules of a template are jwt-templates/jwt-template.ts. The list is `{data, total_count}` with
 * `paginated=true`, as the SDK asks, and the bare array otherwise.
 */

const PATH = '/v1/jwt_templates';

const BODY = jsonInput({
  name: 'string',
  claims: 'object',
  lifetime: 'integer',
  allowed_clock_skew: 'integer',
  custom_signing_key: 'boolean',
  signing_algorithm: 'string',
  signing_key: 'string',
});

/** The body's fields, each read (and its type checked) in Clerk's order. */
function inputOf(req: BapiRequest): JwtTemplateInput {
  const f = req.fields;
  return {
    name: f.string('name'),
    claims: f.object('claims'),
    lifetime: f.integer('lifetime'),
    allowed_clock_skew: f.integer('allowed_clock_skew'),
    custom_signing_key: f.boolean('custom_signing_key'),
    signing_algorithm: f.string('signing_algorithm'),
    signing_key: f.string('signing_key'),
  };
}

const nameTaken = () =>
  new ClerkError(
    422,
    'duplicate_record',
    'duplicate record',
    'A JWT template with this name already exists.',
    {
      param_name: 'name',
    },
  );

export const jwtTemplateRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: PATH,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ limit: 'page', offset: 'page', paginated: 'flag' }) },
    async handler(req, deps) {
      const page = pageOf(req.query);
      const found = await listJwtTemplates(deps.db, page);
      return pagedAnswer(req.query, found.data.map(jwtTemplateJSON), found.total);
    },
  },
  {
    method: 'GET',
    path: `${PATH}/:id`,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const row = await findJwtTemplate(deps.db, req.params.id!);
      if (!row) throw errors.notFound('jwt template');
      return jwtTemplateJSON(row);
    },
  },
  {
    method: 'POST',
    path: PATH,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: BODY },
    async handler(req, deps) {
      const id = newId('jtmp');
      const fields = jwtTemplateFields(deps.keys.secretKey, id, inputOf(req), null);
      return deps.db.transaction(async (tx) => {
        if ((await countJwtTemplates(tx)) >= MAX_JWT_TEMPLATES) {
          throw errors.paramValueInvalid(
            'name',
            `An instance keeps at most ${MAX_JWT_TEMPLATES} JWT templates; delete one first.`,
          );
        }
        const row = await insertJwtTemplate(tx, { ...fields, id, now: deps.clock() });
        if (!row) throw nameTaken();
        return jwtTemplateJSON(row);
      });
    },
  },
  {
    method: 'PATCH',
    path: `${PATH}/:id`,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: BODY },
    async handler(req, deps) {
      const id = req.params.id!;
      return deps.db.transaction(async (tx) => {
        const current = await findJwtTemplate(tx, id);
        if (!current) throw errors.notFound('jwt template');
        const fields = jwtTemplateFields(deps.keys.secretKey, id, inputOf(req), current);
        const row = await updateJwtTemplate(tx, id, fields, deps.clock());
        if (row === 'name_taken') throw nameTaken();
        if (!row) throw errors.notFound('jwt template');
        return jwtTemplateJSON(row);
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
      if (!(await deleteJwtTemplate(deps.db, id))) throw errors.notFound('jwt template');
      return { object: 'jwt_template', id, deleted: true };
    },
  },
];
