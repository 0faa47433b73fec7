import type { z } from '@app/contract';
import { errors } from '../errors.ts';
import { JSON_TYPES, jsonFieldMeta, type JsonType } from './json-input.ts';

/**
 * Typed reads of a snake_case JSON body, limited to the fields the route's input schema declares (see
 * json-input.ts), each checked by its declared zod type when the handler reads it; `null` counts as
 * absent. A value of another type is `param_format_invalid`; reading an undeclared field, or reading a
 * field as another type than it is declared, is a programming error (a 500 the fuzz suite finds).
 */
export class JsonBody {
  private readonly b: Record<string, unknown>;

  constructor(
    body: unknown,
    private readonly declared: z.ZodObject | undefined,
  ) {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw errors.bodyInvalid('The request body must be a JSON object.');
    }
    this.b = (body ?? {}) as Record<string, unknown>;
  }

  private read<T extends JsonType>(
    name: string,
    type: T,
  ): z.output<(typeof JSON_TYPES)[T]['schema']> | undefined {
    const meta = jsonFieldMeta(this.declared, name);
    if (!meta) {
      throw new Error(`The route reads body field ${name}, which its input schema does not declare.`);
    }
    if (meta.jsonType !== type) {
      throw new Error(
        `The route reads body field ${name} as ${type}, which its input schema declares ${meta.jsonType}.`,
      );
    }
    const v = this.b[name];
    if (v === undefined || v === null) return undefined;
    if (!(this.declared!.shape[name] as z.ZodType).safeParse(v).success) {
      throw errors.paramFormatInvalid(name, JSON_TYPES[type].expected);
    }
    return v as z.output<(typeof JSON_TYPES)[T]['schema']>;
  }

  string(name: string): string | undefined {
    return this.read(name, 'string');
  }

  object(name: string): Record<string, unknown> | undefined {
    return this.read(name, 'object');
  }

  integer(name: string): number | undefined {
    return this.read(name, 'integer');
  }

  number(name: string): number | undefined {
    return this.read(name, 'number');
  }

  strings(name: string): string[] | undefined {
    return this.read(name, 'strings');
  }

  boolean(name: string): boolean | undefined {
    return this.read(name, 'boolean');
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
