import type { Schema, SchemaOutput } from '@app/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseRequest } from '../api/contract-io.ts';
import type { ConsoleBackend } from './backend-client.ts';
import { consoleErrorOf } from './backend-errors.ts';

/**
 * Who may call a console route, checked after the session token and before any input is read:
 * - `operator_enrolling`: an operator (`console.operators`), with or without a second factor (the
 *   console's own `me`, which tells the page to send them to set one up);
 * - `operator`: an operator with a second factor;
 * - `operator_reverified`: that, and a session that proved its factors within Clerk's `strict` window
 *   (10 minutes), else 403 in Clerk's re-verification shape (reverification.ts).
 * Anyone else, an organisation admin included, gets `403 not_an_operator`.
 */
export type ConsolePermission = 'operator_enrolling' | 'operator' | 'operator_reverified';

/** The operator a request was let through for (set by requireOperator). */
export interface ConsoleOperator {
  userId: string;
  twoFactorEnabled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    consoleOperator?: ConsoleOperator;
  }
}

export interface ConsoleDeps {
  readonly backend: ConsoleBackend;
  /** Whether the instance's billing is on (the billing area answers `404 billing_disabled` otherwise). */
  billingEnabled(): boolean;
}

type Parsed<P extends Record<string, Schema>> = { [K in keyof P]: SchemaOutput<P[K]> };

export interface ConsoleCall<
  B extends Schema | undefined,
  P extends Record<string, Schema>,
  Q extends Schema | undefined,
> {
  req: FastifyRequest;
  reply: FastifyReply;
  operator: ConsoleOperator;
  body: B extends Schema ? SchemaOutput<B> : undefined;
  params: Parsed<P>;
  query: Q extends Schema ? SchemaOutput<Q> : undefined;
}

/** One console API route (under /console/api): what the plugin, the tests and the docs know of it. */
export interface ConsoleRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** Under /console/api, with `:name` segments. */
  path: string;
  /** A Clerk session token only: no API key, no OAuth access token (a person operates the console). */
  auth: 'session_token';
  permission: ConsolePermission;
  input: { body?: Schema; params?: Record<string, Schema>; query?: Schema };
  run(req: FastifyRequest, reply: FastifyReply, deps: ConsoleDeps): Promise<unknown>;
}

/** Declares a console route; its input is read once, after the operator checks (422 `invalid_request`). */
export function consoleRoute<
  B extends Schema | undefined = undefined,
  P extends Record<string, Schema> = Record<never, Schema>,
  Q extends Schema | undefined = undefined,
>(declaration: {
  method: ConsoleRoute['method'];
  path: string;
  permission: ConsolePermission;
  input?: { body?: B; params?: P; query?: Q };
  handler(call: ConsoleCall<B, P, Q>, deps: ConsoleDeps): Promise<unknown>;
}): ConsoleRoute {
  const { handler, input = {}, ...rest } = declaration;
  return {
    ...rest,
    auth: 'session_token',
    input,
    async run(req, reply, deps) {
      const raw = (req.params ?? {}) as Record<string, unknown>;
      const params = Object.fromEntries(
        Object.entries(input.params ?? {}).map(([name, schema]) => [name, parseRequest(schema, raw[name])]),
      ) as Parsed<P>;
      const body = (input.body ? parseRequest(input.body, req.body ?? {}) : undefined) as ConsoleCall<
        B,
        P,
        Q
      >['body'];
      const query = (input.query ? parseRequest(input.query, req.query ?? {}) : undefined) as ConsoleCall<
        B,
        P,
        Q
      >['query'];
      const operator = req.consoleOperator;
      if (!operator) throw new Error(`${req.routeOptions.url} is not guarded by requireOperator.`);
      try {
        return await handler({ req, reply, operator, body, params, query }, deps);
      } catch (error) {
        throw consoleErrorOf(error);
      }
    },
  };
}
