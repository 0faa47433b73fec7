import { errors } from '../errors.ts';

export type FormBody = Record<string, string | string[] | undefined>;

/** A form field as a trimmed string; clerk-js sends unset optional inputs as "" which means "not given". */
export function field(body: FormBody, name: string): string | undefined {
  const value = single(body, name);
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Like `field` but keeps the value untrimmed (passwords may start or end with spaces). */
export function rawField(body: FormBody, name: string): string | undefined {
  const value = single(body, name);
  return value === undefined || value === '' ? undefined : value;
}

/** One value: a parameter given twice (`code=1&code=2`) is ambiguous, not "the last one". */
function single(body: FormBody, name: string): string | undefined {
  const raw = body[name];
  if (!Array.isArray(raw)) return raw;
  if (raw.length > 1) throw errors.paramFormatInvalid(name, 'a single value');
  return raw[0];
}

export function has(body: FormBody, name: string): boolean {
  return body[name] !== undefined;
}

export function jsonObjectField(body: FormBody, name: string): Record<string, unknown> | undefined {
  const value = field(body, name);
  if (value === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw errors.paramFormatInvalid(name, 'a JSON object');
}

export function booleanField(body: FormBody, name: string): boolean | undefined {
  const value = field(body, name);
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw errors.paramFormatInvalid(name, 'true or false');
}
