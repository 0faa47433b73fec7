import { CliError, isUserId, type ActorTokenAdmin, type UserSummary } from './actor-token-admin.ts';

interface UserJSON {
  id: string;
  first_name: string | null;
  last_name: string | null;
  primary_email_address_id: string | null;
  email_addresses: { id: string; email_address: string }[];
}

/**
 * Through the Backend API of the running server, with the instance secret key: used when that server
 * has the PGlite directory open, since no second process may open it.
 */
export function backendApiAdmin(apiUrl: string, secretKey: string): ActorTokenAdmin {
  const call = backendApiCaller(apiUrl, secretKey);
  const summary = (user: UserJSON): UserSummary => {
    const primary =
      user.email_addresses.find((e) => e.id === user.primary_email_address_id) ?? user.email_addresses[0];
    return {
      id: user.id,
      name: [user.first_name, user.last_name].filter(Boolean).join(' ') || null,
      email: primary?.email_address ?? null,
    };
  };
  return {
    via: `the Backend API at ${apiUrl}`,
    async findUser(idOrEmail) {
      if (isUserId(idOrEmail)) {
        try {
          return summary(await call<UserJSON>('GET', `/v1/users/${encodeURIComponent(idOrEmail)}`));
        } catch (err) {
          if (err instanceof CliError && err.status === 404) return null;
          throw err;
        }
      }
      const users = await call<UserJSON[]>(
        'GET',
        `/v1/users?email_address=${encodeURIComponent(idOrEmail)}&limit=1`,
      );
      return users[0] ? summary(users[0]) : null;
    },
    async createActorToken(input) {
      const token = await call<{ id: string; url: string }>('POST', '/v1/actor_tokens', {
        user_id: input.userId,
        actor: { sub: input.actorId },
        ...(input.expiresInSeconds === undefined ? {} : { expires_in_seconds: input.expiresInSeconds }),
        ...(input.sessionMaxDurationInSeconds === undefined
          ? {}
          : { session_max_duration_in_seconds: input.sessionMaxDurationInSeconds }),
      });
      return { id: token.id, url: token.url };
    },
    async revokeActorToken(id) {
      const token = await call<{ id: string; status: string }>(
        'POST',
        `/v1/actor_tokens/${encodeURIComponent(id)}/revoke`,
      );
      return { id: token.id, status: token.status };
    },
    close: async () => {},
  };
}

/** The Backend API answers with the instance's JWKS only to a caller holding its secret key. */
export async function isBackendApiOf(apiUrl: string, secretKey: string): Promise<boolean> {
  try {
    const res = await fetch(`${apiUrl}/v1/jwks`, {
      headers: { authorization: `Bearer ${secretKey}` },
      signal: AbortSignal.timeout(3000),
    });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * A caller of the running server's Backend API with the instance secret key (the CLI's way in while that
 * server holds the PGlite directory): the answer's JSON, or a CliError with Clerk's message and status.
 */
export function backendApiCaller(apiUrl: string, secretKey: string) {
  return async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${secretKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new CliError(`The Backend API at ${apiUrl} could not be reached (${(err as Error).message}).`);
    }
    const json = (await res.json().catch(() => null)) as
      (T & { errors?: { long_message?: string; message?: string }[] }) | null;
    if (!res.ok) {
      const error = json?.errors?.[0];
      throw new CliError(
        error?.long_message ?? error?.message ?? `The Backend API answered ${res.status}.`,
        res.status,
      );
    }
    return json as T;
  };
}
