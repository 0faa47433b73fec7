import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.ts';
import { FAPI_BODY_LIMIT } from '../http/body-limits.ts';
import { jsonNestsDeeperThan } from '../http/json-nesting.ts';
import {
  checkJson,
  checkPathParams,
  checkText,
  MAX_JSON_DEPTH,
  parseForm,
  type Form,
} from '../http/strict-input.ts';

/**
 * The Frontend API's readers of form bodies, JSON bodies and query strings, all strict (see
 * strict-input.ts). Registered in the Frontend API's scope only; a body of any other type is refused
 * (415 from Fastify, answered as `request_body_invalid`), uploads aside (images/upload.ts).
 */
export function registerFormParsers(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer', bodyLimit: FAPI_BODY_LIMIT },
    (_req, body: Buffer, done) => {
      try {
        done(null, parseForm(body.toString('latin1'), 'body'));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
  // clerk-js sends forms; JSON is taken in the same shape (strings, or arrays of strings) and no other.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const json = { parseAs: 'string' as const, bodyLimit: FAPI_BODY_LIMIT };
  app.addContentTypeParser('application/json', json, (req, body: string, done) => {
    if (jsonNestsDeeperThan(body, MAX_JSON_DEPTH)) {
      return done(errors.bodyInvalid(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return done(errors.bodyInvalid('The request body is not valid JSON.'), undefined);
    }
    try {
      // The API-key calls (fapi/api-keys/) take clerk-js's JSON as it is: `seconds_until_expiration` is a number.
      done(null, takesJsonAsIs(req.params) ? jsonObjectOf(parsed) : formOfJson(parsed));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // Clerk's own query parameters are well-formed; the rest of the query is held to the same rules.
  app.addHook('onRequest', async (req) => {
    const q = req.url.indexOf('?');
    if (q !== -1) parseForm(req.url.slice(q + 1), 'query');
    // The router's path (`*`) and the image routes' `:id` alike.
    checkPathParams(req.params);
  });
}

/** The catch-all's path (`*`) names an API-key call (`/api_keys…`, after any repeated slashes). */
function takesJsonAsIs(params: unknown): boolean {
  const path = (params as Record<string, unknown> | undefined)?.['*'];
  return typeof path === 'string' && path.split('/').filter(Boolean)[0] === 'api_keys';
}

/** A JSON object held to the same text and depth rules (strict-input.ts), its values kept as they are. */
function jsonObjectOf(parsed: unknown): Record<string, unknown> {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw errors.bodyInvalid('The request body must be a JSON object.');
  }
  checkJson(parsed);
  return Object.assign(Object.create(null), parsed) as Record<string, unknown>;
}

function formOfJson(parsed: unknown): Form {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw errors.bodyInvalid('The request body must be a JSON object.');
  }
  checkJson(parsed);
  const form: Form = Object.create(null);
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') {
      checkText(name, value);
      form[name] = value;
    } else if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) {
      form[name] = value;
    } else {
      throw errors.paramFormatInvalid(name, 'a string');
    }
  }
  return form;
}
