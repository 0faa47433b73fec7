import { z } from '@app/contract';

/**
 * What a Frontend API form parameter holds, which decides the values that are wrong for it (the fuzz
 * suite sends those). clerk-js sends every parameter form-encoded, as text.
 */
export type FormKind =
  | 'text'
  | 'id'
  | 'enum'
  | 'code'
  | 'bool'
  | 'email'
  | 'password'
  | 'json'
  | 'url'
  | 'phone'
  | 'token'
  | 'page'
  /** A filter that may be repeated (`role=a&role=b`): any values, any number of times. */
  | 'list';

/**
 * A form parameter as the form parsers give it: one string, or several when it is repeated. Its value is
 * read, and refused with the code hosted Clerk answers (`form_param_format_invalid` for a repeated or
 * malformed one, `form_param_missing`…), by the readers of form.ts at the point the handler needs it: the
 * same parameter is optional for one strategy and required for another, and the order in which a
 * request's defects are reported is part of what clerk-js shows.
 */
const formValue = z.union([z.string(), z.array(z.string())]).optional();

/** The body (or, for GET, the query) a route reads: unknown parameters pass, as hosted Clerk ignores them. */
export function formInput(fields: Record<string, FormKind> = {}): z.ZodObject {
  return z.looseObject(
    Object.fromEntries(
      Object.entries(fields).map(([name, kind]) => [name, formValue.meta({ formKind: kind })]),
    ),
  );
}

/** The kinds a route's form input declares, by parameter (for the fuzz suite). */
export function formKinds(schema: z.ZodObject | undefined): Record<string, FormKind> {
  const kinds: Record<string, FormKind> = {};
  for (const [name, field] of Object.entries(schema?.shape ?? {})) {
    const kind = (field as z.ZodType).meta()?.formKind;
    if (typeof kind === 'string') kinds[name] = kind as FormKind;
  }
  return kinds;
}
