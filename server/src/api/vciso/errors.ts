import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { HierarchyRefusal, HierarchyRefusalCode } from '../../organizations/hierarchy-rules.ts';
import { isUnreadableJson } from '../errors.ts';

/**
 * The client-organisation routes' own error codes, beside the shared ones of ../errors.ts (which keep
 * answering unauthenticated, no_active_organization, organization_not_found and internal_error).
 * Same body shape: `{ errors: [{ code, message }] }`.
 */
export const HIERARCHY_ERROR_STATUS = {
  invalid_request: 422,
  forbidden: 403,
  not_a_child: 404,
  hierarchy_cycle: 409,
  hierarchy_too_deep: 409,
  already_has_parent: 409,
  slug_taken: 409,
} as const satisfies Record<HierarchyRefusalCode | 'invalid_request' | 'slug_taken', number>;

export type HierarchyErrorCode = keyof typeof HIERARCHY_ERROR_STATUS;

export class HierarchyError extends Error {
  override name = 'HierarchyError';
  readonly status: number;

  constructor(
    readonly code: HierarchyErrorCode,
    message: string,
  ) {
    super(message);
    this.status = HIERARCHY_ERROR_STATUS[code];
  }

  static from(refusal: HierarchyRefusal): HierarchyError {
    return new HierarchyError(refusal.code, refusal.message);
  }
}

export const invalidRequest = (message: string) => new HierarchyError('invalid_request', message);

/**
 * The routes' errorHandler: answers HierarchyError, and a body that is not JSON as invalid_request;
 * anything else goes on to the API scope's handler (shared codes, logged 500s).
 */
export function hierarchyErrorHandler(error: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HierarchyError) {
    return reply.code(error.status).send({ errors: [{ code: error.code, message: error.message }] });
  }
  if (isUnreadableJson(error)) {
    return reply
      .code(422)
      .send({ errors: [{ code: 'invalid_request', message: 'The body must be a JSON object.' }] });
  }
  throw error;
}
