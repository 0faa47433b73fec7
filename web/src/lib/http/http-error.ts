import { apiErrorBodySchema, type ApiErrorBody, type ApiErrorItem } from '@app/contract';

/** The product API's error shape, shared by every endpoint: `{ errors: [{ code, message }] }` (the contract's). */
export type { ApiErrorBody, ApiErrorItem };

/** A product request that failed: a refusal (with the server's errors) or no usable answer at all. */
export class HttpError extends Error {
  override name = 'HttpError';

  constructor(
    message: string,
    /** HTTP status of a refusal; null when there was no usable answer at all. */
    readonly status: number | null,
    /** The first error's code; null when the server sent none. */
    readonly code: string | null = null,
    /** Every `{ code, message }` the server sent, in order; empty when it sent none. */
    readonly errors: readonly ApiErrorItem[] = [],
  ) {
    super(message);
  }
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return apiErrorBodySchema.safeParse(value).success;
}
