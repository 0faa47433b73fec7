import { ClerkError, errors } from '../errors.ts';

/**
 * Strict reading of request input. Clerk's clients only ever send well-formed input (clerk-js encodes
 * every form with encodeURIComponent, @clerk/backend sends JSON.stringify output), so anything else is
 * refused as a whole instead of being read leniently: a lenient reader turns `a=%zz` into a value,
 * drops what it cannot read and lets the request go on without it, and hands NUL bytes or broken UTF-8
 * to PostgreSQL, which refuses them with a 5xx.
 */

/** The longest single value: far above any real one (names, ids, tokens, metadata), far below 1 MB. */
export const MAX_VALUE_LENGTH = 64 * 1024;
/** The longest parameter name: ours are short; `a[b][c]…` nested hundreds deep is no parameter. */
export const MAX_NAME_LENGTH = 256;
/** The most parameters in one form or query. */
export const MAX_FIELDS = 256;
/** The deepest nesting of JSON (metadata is a few levels deep). */
export const MAX_JSON_DEPTH = 64;

/** The longest segment of a path: ids, tokens and template names are far shorter. */
export const MAX_PATH_SEGMENT_LENGTH = 256;

export type Form = Record<string, string | string[]>;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const HEX = /^[0-9A-Fa-f]{2}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text value cannot be stored, or null: NUL (PostgreSQL text cannot hold it) or lone surrogates. */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'text without NUL characters';
  if (LONE_SURROGATE.test(value)) return 'well-formed Unicode text';
  return null;
}

/**
 * Path parameters (as Fastify decoded them, a wildcard's whole path included) are input like the rest:
 * one with a control character (`%00`, which PostgreSQL refuses in text with a 5xx), a lone surrogate
 * or an overlong segment names nothing, and is answered 404 before any query.
 */
export function checkPathParams(params: unknown): void {
  for (const value of Object.values((params ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') continue;
    if (
      // eslint-disable-next-line no-control-regex -- control characters are what this looks for
      /[\u0000-\u001f\u007f]/.test(value) ||
      LONE_SURROGATE.test(value) ||
      value.split('/').some((segment) => segment.length > MAX_PATH_SEGMENT_LENGTH)
    ) {
      throw errors.notFound();
    }
  }
}

/**
 * Parses `application/x-www-form-urlencoded` text (a body or a query string) strictly: printable ASCII
 * only, `%XX` escapes that decode to valid UTF-8, no empty names, values within MAX_VALUE_LENGTH.
 * A repeated name becomes an array, as before. Throws Clerk errors.
 */
export function parseForm(text: string, where: 'body' | 'query'): Form {
  const form: Form = Object.create(null);
  let fields = 0;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    if (++fields > MAX_FIELDS) throw unreadable(where, `more than ${MAX_FIELDS} parameters`);
    const eq = pair.indexOf('=');
    const name = decode(eq === -1 ? pair : pair.slice(0, eq), where);
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1), where, name);
    if (name === '') throw unreadable(where, 'a parameter without a name');
    if (name.length > MAX_NAME_LENGTH) throw unreadable(where, 'a parameter name that is too long');
    checkText(name, value);
    const prior = form[name];
    form[name] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return form;
}

/** Text limits of one parameter's value (NUL, lone surrogates, length). */
export function checkText(name: string, value: string): void {
  const problem = textProblem(value);
  if (problem) throw errors.paramFormatInvalid(name, problem);
  if (value.length > MAX_VALUE_LENGTH) throw errors.paramMaxLength(name, MAX_VALUE_LENGTH);
}

function decode(raw: string, where: 'body' | 'query', name?: string): string {
  // Raw bytes outside printable ASCII are never sent by a form encoder (it escapes them).
  if (!/^[\x21-\x7e]*$/.test(raw)) throw unreadable(where, 'characters that are not encoded');
  if (!raw.includes('%')) return raw.replace(/\+/g, ' ');
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '%') {
      const hex = raw.slice(i + 1, i + 3);
      if (!HEX.test(hex)) throw unreadable(where, 'a broken %-escape');
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(ch === '+' ? 0x20 : ch.charCodeAt(0));
  }
  try {
    return utf8.decode(new Uint8Array(bytes));
  } catch {
    if (name !== undefined) throw errors.paramFormatInvalid(name, 'valid UTF-8 text');
    throw unreadable(where, 'a parameter name that is not valid UTF-8');
  }
}

function unreadable(where: 'body' | 'query', what: string): ClerkError {
  return errors.bodyInvalid(
    where === 'body'
      ? `The request body could not be read: ${what}.`
      : `The query string could not be read: ${what}.`,
  );
}

/**
 * Checks parsed JSON without recursion: nesting at most MAX_JSON_DEPTH, every string (keys too) storable
 * text within MAX_VALUE_LENGTH. The param named in an error is the top-level key it sits under.
 */
export function checkJson(value: unknown): void {
  const stack: { v: unknown; depth: number; top: string }[] = [{ v: value, depth: 0, top: 'body' }];
  while (stack.length) {
    const { v, depth, top } = stack.pop()!;
    if (typeof v === 'string') {
      checkText(top, v);
      continue;
    }
    if (typeof v === 'number' && !Number.isFinite(v)) throw errors.paramFormatInvalid(top, 'a finite number');
    if (!v || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      throw errors.bodyInvalid(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    }
    for (const [key, item] of Object.entries(v)) {
      const at = depth === 0 && !Array.isArray(v) ? key : top;
      checkText(at, key);
      stack.push({ v: item, depth: depth + 1, top: at });
    }
  }
}
