/** One entry of the product API's error body. */
export interface ApiErrorItem {
  code: string;
  message: string;
}

/** The product API's error shape, shared by every endpoint: `{ errors: [{ code, message }] }`. */
export interface ApiErrorBody {
  errors: ApiErrorItem[];
}

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
  if (typeof value !== 'object' || value === null) return false;
  const errors = (value as { errors?: unknown }).errors;
  return (
    Array.isArray(errors) &&
    errors.every(
      (e: unknown) =>
        typeof e === 'object' &&
        e !== null &&
        typeof (e as { message?: unknown }).message === 'string' &&
        typeof (e as { code?: unknown }).code === 'string',
    )
  );
}
