import type { FastifyInstance } from 'fastify';
import { jsonNestsDeeperThan } from '@app/identity';
import { ApiError } from './errors.ts';

/** The largest product API body: its bodies are a few settings or a name, far below this. */
export const API_BODY_LIMIT = 16 * 1024;
/** The deepest nesting of a product API body (settings are an object of scalars). */
export const API_JSON_DEPTH = 8;

/**
 * The product API's JSON reader: at most API_BODY_LIMIT bytes (Fastify stops reading there, chunked
 * bodies too) and at most API_JSON_DEPTH levels, counted before `JSON.parse` runs. Runs only after the
 * onRequest authentication, so an unauthenticated body is never read.
 */
export function registerJsonBody(api: FastifyInstance): void {
  api.removeAllContentTypeParsers();
  api.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: API_BODY_LIMIT },
    (_req, body: string, done) => {
      if (body.trim() === '') return done(null, undefined);
      if (jsonNestsDeeperThan(body, API_JSON_DEPTH)) {
        return done(new ApiError('body_invalid', `The body is nested deeper than ${API_JSON_DEPTH} levels.`));
      }
      try {
        done(null, JSON.parse(body));
      } catch {
        done(new ApiError('body_invalid', 'The body is not valid JSON.'));
      }
    },
  );
}
