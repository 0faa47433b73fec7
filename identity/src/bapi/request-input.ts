import { errors } from '../errors.ts';

/**
 * Typed reads of a snake_case JSON body; `null` counts as absent (the SDK drops nothing in bodies).
 * With `declared` (a route's input schema) only those fields may be read, so the schema the fuzz suite
 * reads is the whole of what the route takes.
 */
export class JsonBody {
  private readonly b: Record<string, unknown>;

  constructor(
    body: unknown,
    private readonly declared?: Record<string, unknown>,
  ) {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw errors.bodyInvalid('The request body must be a JSON object.');
    }
    this.b = (body ?? {}) as Record<string, unknown>;
  }

  private read(name: string): unknown {
    if (this.declared && !Object.hasOwn(this.declared, name)) {
      throw new Error(`The route reads body field ${name}, which its input schema does not declare.`);
    }
    return this.b[name];
  }

  string(name: string): string | undefined {
    const v = this.read(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw errors.paramFormatInvalid(name, 'a string');
    return v;
  }

  object(name: string): Record<string, unknown> | undefined {
    const v = this.read(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'object' || Array.isArray(v)) throw errors.paramFormatInvalid(name, 'a JSON object');
    return v as Record<string, unknown>;
  }

  integer(name: string): number | undefined {
    const v = this.read(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw errors.paramFormatInvalid(name, 'a whole number');
    return v;
  }

  number(name: string): number | undefined {
    const v = this.read(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number') throw errors.paramFormatInvalid(name, 'a number');
    return v;
  }

  strings(name: string): string[] | undefined {
    const v = this.read(name);
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || !v.every((s): s is string => typeof s === 'string'))
      throw errors.paramFormatInvalid(name, 'an array of strings');
    return v;
  }

  boolean(name: string): boolean | undefined {
    const v = this.read(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') throw errors.paramFormatInvalid(name, 'true or false');
    return v;
  }
}

type Query = Record<string, string | string[] | undefined>;

/** Every value of a repeatable query parameter. */
export function queryList(q: Query, name: string): string[] {
  const v = q[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((s) => s.trim()).filter(Boolean);
}

export function queryString(q: Query, name: string): string | undefined {
  const v = q[name];
  const value = (Array.isArray(v) ? v[v.length - 1] : v)?.trim();
  return value || undefined;
}

/** `true`/`1` are true, `false`/`0` or absent false (the SDK never sends false values at all); else 422. */
export function queryFlag(q: Query, name: string): boolean {
  const value = queryString(q, name);
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw errors.paramFormatInvalid(name, 'true or false');
}

/** `order_by` without its sign for ascending (`+created_at` = `created_at`), if it is one of `allowed`. */
export function orderOf(q: Query, allowed: string[], fallback: string): string {
  const value = queryString(q, 'order_by')?.replace(/^\+/, '');
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) {
    throw errors.paramValueInvalid('order_by', `order_by must be one of ${allowed.join(', ')}.`);
  }
  return value;
}
