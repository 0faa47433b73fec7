import { describeIssues, type Schema, type SchemaInput, type SchemaOutput } from '@app/contract';
import { invalidRequest } from './errors.ts';

/** A request value (body, parameter) read with its contract schema; a refusal is `422 invalid_request`. */
export function parseRequest<S extends Schema>(schema: S, value: unknown): SchemaOutput<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidRequest(describeIssues(parsed.error));
  return parsed.data;
}

/** Thrown when the server is about to answer something its contract does not allow: a bug of ours. */
export class AnswerOutsideContract extends Error {
  override name = 'AnswerOutsideContract';
}

/**
 * An answer checked against its contract schema before it leaves (and reduced to what the schema
 * names). A mismatch is logged by the API scope's handler and answered `500 internal_error`, never sent.
 */
export function answerWith<S extends Schema>(schema: S, value: SchemaInput<S>): SchemaOutput<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AnswerOutsideContract(describeIssues(parsed.error));
  return parsed.data;
}
