import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Every error the product API answers with: one stable machine code, its HTTP status and a default
 * message for people. Bodies are `{ errors: [{ code, message }] }`, the shape the web client reads.
 */
export const API_ERRORS = {
  unauthenticated: { status: 401, message: 'A valid session token is required.' },
  body_invalid: { status: 400, message: 'The request body could not be read.' },
  body_too_large: { status: 413, message: 'The request body is too large.' },
  forbidden: { status: 403, message: 'Your role in the active organisation does not allow this.' },
  no_active_organization: { status: 404, message: 'The session has no active organisation.' },
  organization_not_found: { status: 404, message: 'The active organisation no longer exists.' },
  internal_error: { status: 500, message: 'The server could not complete the request.' },
  service_unavailable: {
    status: 503,
    message: 'The service is temporarily unavailable. Try again in a moment.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;

export interface ApiErrorBody {
  errors: { code: ApiErrorCode; message: string }[];
}

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
}

export function apiErrorBody(code: ApiErrorCode, message: string = API_ERRORS[code].message): ApiErrorBody {
  return { errors: [{ code, message }] };
}

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
    req.log.error({ err: error }, 'product API request failed');
    return sendApiError(reply, new ApiError('internal_error'));
  });
}

/** A @clerk/backend error for a 503 answer of the Backend API (ClerkAPIResponseError), or null. */
function backendUnavailable(error: unknown): { retryAfter?: number } | null {
  const { status, retryAfter } = (error ?? {}) as { status?: unknown; retryAfter?: unknown };
  if (status !== 503) return null;
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
