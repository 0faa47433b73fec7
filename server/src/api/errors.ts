import { isClerkAPIResponseError } from '@clerk/shared/error';
import { API_ERRORS, apiErrorBody, type ApiErrorCode } from '@app/contract';
import { DatabaseUnavailableError } from '@app/identity';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The product API's one error registry is the contract's (API_ERRORS: code, status, default message);
 * this file turns it into answers. Bodies are `{ errors: [{ code, message }] }`, the shape the web reads.
 */
export { API_ERRORS, apiErrorBody, type ApiErrorCode, type ApiErrorBody } from '@app/contract';

/** Thrown by route handlers and guards; the API scope's error handler turns it into the JSON answer. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ApiErrorCode,
    message: string = API_ERRORS[code].message,
  ) {
    super(message);
    this.status = API_ERRORS[code].status;
  }

  /** A refusal worded by a rule (e.g. the hierarchy's), as an answer. */
  static from(refusal: { code: ApiErrorCode; message: string }): ApiError {
    return new ApiError(refusal.code, refusal.message);
  }
}

export const invalidRequest = (message: string) => new ApiError('invalid_request', message);

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).send(apiErrorBody(error.code, error.message));
}

/** Keeps every failure under /api in the product's error shape; unexpected ones are logged, not leaked. */
export function registerApiErrorHandler(api: FastifyInstance) {
  api.setErrorHandler((error, req, reply) => {
    if (error instanceof ApiError) return sendApiError(reply, error);
    // Fastify's refusals of a body before any handler: too large (413), of another type (415), unreadable.
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status === 413) return sendApiError(reply, new ApiError('body_too_large'));
    if (status >= 400 && status < 500) return sendApiError(reply, new ApiError('body_invalid'));
    // The Backend API answered 503 (its database is away): a passing outage, not a bug of ours. Said
    // as such, the client retries instead of showing a failure.
    const unavailable = backendUnavailable(error);
    if (unavailable) {
      req.log.warn('product API request failed: the Backend API is unavailable');
      reply.header('retry-after', String(unavailable.retryAfter ?? 2));
      return sendApiError(reply, new ApiError('service_unavailable'));
    }
    // The product's own database is away or full: as passing as the Backend API's 503, and said alike.
    if (error instanceof DatabaseUnavailableError) {
      req.log.warn('product API request failed: the database is unavailable');
      reply.header('retry-after', '2');
      return sendApiError(reply, new ApiError('service_unavailable'));
    }
    req.log.error({ err: error }, 'product API request failed');
    return sendApiError(reply, new ApiError('internal_error'));
  });
}

/** The Backend API's 404 (an organisation or user it does not know), as @clerk/backend throws it. */
export function isBackendNotFound(error: unknown): boolean {
  return isClerkAPIResponseError(error) && error.status === 404;
}

/** A @clerk/backend error for a 503 answer of the Backend API, or null. */
function backendUnavailable(error: unknown): { retryAfter?: number } | null {
  if (!isClerkAPIResponseError(error) || error.status !== 503) return null;
  const { retryAfter } = error;
  return { retryAfter: typeof retryAfter === 'number' && retryAfter > 0 ? retryAfter : undefined };
}

/**
 * A body that could not be read as JSON (malformed, too deep, of another type), which routes taking a
 * body answer as their own `invalid_request`. One too large is not: it stays `413 body_too_large`.
 */
export function isUnreadableJson(error: { code?: unknown; statusCode?: number }): boolean {
  if (error instanceof ApiError) return error.code === 'body_invalid';
  return typeof error.code === 'string' && error.code.startsWith('FST_ERR_CTP_') && error.statusCode !== 413;
}

/**
 * The errorHandler of routes taking a body: a body that is not JSON is an invalid request of that
 * route (422), not a server error; anything else goes on to the API scope's handler.
 */
export function bodyRouteErrorHandler(error: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  if (isUnreadableJson(error)) return sendApiError(reply, invalidRequest('The body must be a JSON object.'));
  throw error;
}
