import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors.ts';
import { BAPI_BODY_LIMIT, refuseDeclaredOversize } from '../http/body-limits.ts';
import { jsonNestsDeeperThan } from '../http/json-nesting.ts';
import { checkJson, checkPathParams, MAX_JSON_DEPTH, parseForm } from '../http/strict-input.ts';
import type { BapiInput } from './route.ts';

/** What the matched route declares it reads (none for an unknown path, answered 404 after these checks). */
const inputOf = (req: FastifyRequest): BapiInput =>
  (req.routeOptions.config as { bapiInput?: BapiInput } | undefined)?.bapiInput ?? {};

/**
 * The Backend API's readers, strict like the Frontend API's (see strict-input.ts): JSON that is an
 * object (an array only where the route takes one), with storable text and bounded nesting; a query
 * string that is well-formed; no body of another type (415 from Fastify, answered `request_body_invalid`).
 */
export function registerJsonParser(app: FastifyInstance): void {
  // @clerk/backend declares `Content-Type: application/json` on bodiless calls too (revokes, deletes),
  // which Fastify's own parser rejects.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body: string, done) => {
    const text = body.trim();
    if (!text) return done(null, {});
    if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(errors.bodyInvalid(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(errors.bodyInvalid('The request body is not valid JSON.'), undefined);
    }
    const array = inputOf(req).array === true;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) !== array) {
      return done(
        errors.bodyInvalid(`The request body must be a JSON ${array ? 'array' : 'object'}.`),
        undefined,
      );
    }
    try {
      checkJson(parsed);
      done(null, parsed);
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.addHook('onRequest', async (req) => {
    const q = req.url.indexOf('?');
    if (q !== -1) parseForm(req.url.slice(q + 1), 'query');
    checkPathParams(req.params);
    refuseDeclaredOversize(req, req.routeOptions.bodyLimit ?? BAPI_BODY_LIMIT);
    const type = req.headers['content-type'] ?? '';
    if (/^multipart\//i.test(type) && !inputOf(req).upload) {
      throw errors.bodyInvalid('This request takes a JSON body.');
    }
  });
}
