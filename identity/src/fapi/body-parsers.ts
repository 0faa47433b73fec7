import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.ts';
import { checkJson, checkText, parseForm, type Form } from '../http/strict-input.ts';

/**
 * The Frontend API's readers of form bodies, JSON bodies and query strings, all strict (see
 * strict-input.ts). Registered in the Frontend API's scope only; a body of any other type is refused
 * (415 from Fastify, answered as `request_body_invalid`), uploads aside (images/upload.ts).
 */
export function registerFormParsers(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
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
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body: string, done) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return done(errors.bodyInvalid('The request body is not valid JSON.'), undefined);
    }
    try {
      done(null, formOfJson(parsed));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // Clerk's own query parameters are well-formed; the rest of the query is held to the same rules.
  app.addHook('onRequest', async (req) => {
    const q = req.url.indexOf('?');
    if (q !== -1) parseForm(req.url.slice(q + 1), 'query');
    // An id with a control character (`%00`) names nothing; PostgreSQL would refuse it with a 5xx.
    const path = (req.params as Record<string, string> | undefined)?.['*'] ?? '';
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    if (/[\u0000-\u001f\u007f]/.test(path)) throw errors.notFound();
  });
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
