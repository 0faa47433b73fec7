/** The product API's own error shape, shared by every endpoint. */
interface ApiErrorBody {
  errors: { code: string; message: string }[];
}

export class ProductApiError extends Error {
  override name = 'ProductApiError';

  constructor(
    message: string,
    /** HTTP status of a refusal; null when there was no usable answer at all. */
    readonly status: number | null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export interface Me {
  userId: string;
  sessionId: string;
  /** The session's active organisation, from the verified token; null without one. */
  orgId: string | null;
  orgSlug: string | null;
  orgRole: string | null;
  orgPermissions: string[];
  user: {
    id: string;
    firstName: string | null;
    lastName: string | null;
    primaryEmailAddress: string | null;
  };
}

export interface RequestOptions {
  /** Clerk session token; the server verifies it on every call. */
  token: string;
  signal?: AbortSignal;
}

/** Calls the product API with a session token and returns the parsed JSON, or throws ProductApiError. */
export async function productApiFetch(path: string, { token, signal }: RequestOptions): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(path, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
      // Answers depend on who is asking, so a cached one could belong to another session.
      cache: 'no-store',
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ProductApiError('Could not reach the product API.', null);
  }

  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const first = isApiErrorBody(body) ? body.errors[0] : undefined;
    throw new ProductApiError(
      first?.message ?? `The product API answered with HTTP ${response.status}.`,
      response.status,
      first?.code ?? null,
    );
  }
  if (body === null) {
    throw new ProductApiError('The product API sent a response that is not JSON.', null);
  }
  return body;
}

export async function fetchMe(options: RequestOptions): Promise<Me> {
  const body = await productApiFetch('/api/me', options);
  if (!isMe(body)) {
    throw new ProductApiError('The product API sent an unexpected answer for /api/me.', null);
  }
  return body;
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
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

function isMe(value: unknown): value is Me {
  if (typeof value !== 'object' || value === null) return false;
  const me = value as Partial<Record<keyof Me, unknown>>;
  return (
    typeof me.userId === 'string' &&
    typeof me.sessionId === 'string' &&
    typeof me.user === 'object' &&
    me.user !== null &&
    typeof (me.user as { id?: unknown }).id === 'string'
  );
}
