import { waivesBotProtection } from '../testing-tokens/testing-tokens.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError, type Queryable } from '../db/database.ts';
import { withAuditContext } from '../audit/audit-context.ts';
import { MailUnavailableError } from '../mail/mailer.ts';
import { SmsUnavailableError } from '../sms/sms-sender.ts';
import { phoneNumberUndeliverable } from '../phone-numbers/phone-number.ts';
import type { IdentityDeps } from '../deps.ts';
import { ClerkError, errorBody, errors } from '../errors.ts';
import {
  FAPI_BODY_LIMIT,
  bodyRefusal,
  refuseDeclaredOversize,
  UPLOAD_BODY_LIMIT,
} from '../http/body-limits.ts';
import { setCookie } from '../http/cookies.ts';
import { requestOriginGuard } from '../http/origins.ts';
import { allSatelliteOrigins } from '../domains/domains.ts';
import { countClientCreation } from '../abuse/client-creation.ts';
import { AccountAttempts, AttemptRaced, MAX_ATTEMPT_RACES } from '../abuse/account-attempts.ts';
import { hit, hitAll, waitIfReached, type RateLimitRule } from '../store/rate-limits.ts';
import {
  createClient,
  findClientByToken,
  isReplacedClientToken,
  rotateClientToken,
  updateClient,
} from '../store/clients.ts';
import type { ClientRow, SessionRow } from '../store/rows.ts';
import { hasSignedInSession } from '../store/sessions.ts';
import { clientJSON } from './client-json.ts';
import { clientUat, clientUatOf } from '../sessions/client-uat.ts';
import type { AnyFapiRoute, FapiContext, FapiMethod, FapiRequestInfo, FapiRoute } from './context.ts';
import type { FormBody } from './form.ts';
import type { Prepared } from './prepared-work.ts';
import { MAX_WORK_OUTSIDE_TRANSACTION, WorkOutsideTransaction } from './work-outside-transaction.ts';
import { registerFormParsers } from './body-parsers.ts';
import { apiKeyRoutes, isApiKeysPath } from './api-keys/api-key-routes.ts';
import { directRoutes } from './direct-routes.ts';
import { FapiRouter } from './router.ts';
import { fapiRoutes } from './route-table.ts';
import { readUpload, registerUploadParsers } from './images/upload.ts';
import { labelRoute } from '../observability/request-observability.ts';
import { countSignInAttempt, markSignInAttempt, signInAttemptOf } from '../observability/sign-in-metrics.ts';

const CLIENT_COOKIE = '__client';
/** clerk-js 5.90.0 replaces its dev-browser token with this header of any answer (core/auth/devBrowser.ts). */
const DEV_BROWSER_HEADER = 'Clerk-Db-Jwt';
const DEV_BROWSER_COOKIE = '__clerk_db_jwt';
const METHODS = new Set<FapiMethod>(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * The Clerk Frontend API as clerk-js 5.90.0 calls it through `proxyUrl`. Register with a prefix
 * (e.g. `/__clerk`); every call arrives as GET or POST with `_method` for the other verbs.
 */
export async function fapiPlugin(app: FastifyInstance, opts: { deps: IdentityDeps }) {
  const { deps } = opts;
  const router = new FapiRouter(fapiRoutes(deps.config));
  const apiKeyRouter = new FapiRouter(apiKeyRoutes);
  // Cross-site request forgery: a state-changing call from another origin is refused before its body is
  // read, its rate limits are counted or any handler runs, and the answer sets no cookie (see origins.ts).
  const satelliteOrigins = () => allSatelliteOrigins(deps.settings.settings);
  // A satellite domain's pages call the Frontend API from their own origin (development keys always;
  // production keys without a proxy): its exact origin, and only it, may read the answers with
  // credentials. A preflight from it is answered here; any other origin gets no CORS header at all.
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (typeof origin !== 'string' || !satelliteOrigins().includes(origin)) return;
    reply
      .header('access-control-allow-origin', origin)
      .header('access-control-allow-credentials', 'true')
      .header('vary', 'Origin');
    if (req.method === 'OPTIONS') {
      return reply
        .code(204)
        .header('access-control-allow-methods', 'GET, POST')
        .header('access-control-allow-headers', 'Content-Type')
        .header('access-control-max-age', '600')
        .send();
    }
  });
  const sameOrigin = requestOriginGuard(deps.config, satelliteOrigins);
  app.addHook('onRequest', async (req, reply) => {
    if (!sameOrigin(req)) return sendError(reply, errors.originInvalid());
  });
  registerFormParsers(app);
  // A body larger than its route takes is refused before it is read (a 13 MB form was buffered first):
  // uploads of the image routes, the small forms of every other. Streaming bodies stop at the parsers'
  // limits, the same numbers.
  app.addHook('onRequest', async (req) => {
    if (!req.routeOptions.url?.endsWith('/*')) return refuseDeclaredOversize(req, FAPI_BODY_LIMIT);
    const target = targetOf(req);
    const matched = target.path.startsWith('/v1/') ? router.match(target.method, target.path.slice(3)) : null;
    const upload =
      matched !== null &&
      matched !== 'method_not_allowed' &&
      'upload' in matched.route &&
      !!matched.route.upload;
    refuseDeclaredOversize(req, upload ? UPLOAD_BODY_LIMIT : FAPI_BODY_LIMIT);
    if (!upload && /^(multipart\/|application\/octet-stream)/i.test(req.headers['content-type'] ?? '')) {
      throw errors.bodyInvalid('This request takes a form body.');
    }
  });
  // Logo and profile image uploads: multipart `file`, or a raw octet-stream body (clerk-js sends strings that way).
  await registerUploadParsers(app);
  // Body parsing fails before our handler runs: answer in Clerk's envelope, not Fastify's.
  app.setErrorHandler((err: { statusCode?: number; message?: string }, req, reply) => {
    if (err instanceof ClerkError) return sendError(reply, err);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(reply, bodyRefusal(err.statusCode));
    }
    req.log.error({ err: { message: err.message } }, 'fapi request failed');
    return sendError(reply, errors.internal());
  });

  app.addHook('onResponse', async (req, reply) => countSignInAttempt(deps.metrics, req, reply));

  // The public reads Fastify answers itself, ahead of the router (direct-routes.ts).
  for (const route of directRoutes) app.get(`/v1${route.path}`, route.handler(deps));

  // Security events (sign-ins, lockouts, second factors…) are recorded by the database's triggers with who
  // acts and from where (docs/audit-log.md).
  app.all('/*', (req, reply) =>
    withAuditContext(
      {
        actor: { kind: 'user', id: null },
        ip: req.ip,
        userAgent:
          typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 500) : null,
        requestId: req.id,
        clock: deps.clock,
        recorded: false,
      },
      () => answerFapi(req, reply),
    ),
  );
  const answerFapi = async (req: FastifyRequest, reply: FastifyReply) => {
    const query = req.query as Record<string, string | string[] | undefined>;
    const { method, path } = targetOf(req);
    if (!METHODS.has(method)) return sendError(reply, errors.methodNotAllowed());
    // clerk-js calls API keys without `/v1` and with the session token, not the client (fapi/api-keys/).
    if (isApiKeysPath(path)) {
      reply.header('cache-control', 'no-store');
      const matched = apiKeyRouter.match(method, path);
      if (matched === null) return sendError(reply, errors.notFound('endpoint'));
      if (matched === 'method_not_allowed') return sendError(reply, errors.methodNotAllowed());
      labelRoute(req, `${deps.config.fapiPath}${matched.route.path}`);
      try {
        const { status, body } = await matched.route.answer(req, deps, matched.params);
        return reply.code(status).send(body);
      } catch (err) {
        if (err instanceof ClerkError) return sendError(reply, err);
        if (err instanceof DatabaseUnavailableError) return sendError(reply, errors.unavailable());
        req.log.error({ err: { message: (err as Error).message } }, 'api keys handler failed');
        return sendError(reply, errors.internal());
      }
    }
    if (!path.startsWith('/v1/')) return sendError(reply, errors.notFound('endpoint'));
    const matched = router.match(method, path.slice(3));
    if (matched === null) return sendError(reply, errors.notFound('endpoint'));
    if (matched === 'method_not_allowed') return sendError(reply, errors.methodNotAllowed());
    // Requests counted by the route's pattern, not the path with its ids (observability/).
    labelRoute(req, `${deps.config.fapiPath}/v1${matched.route.path}`);

    let uploaded: Awaited<ReturnType<typeof readUpload>>;
    try {
      uploaded = await readUpload(req);
      // Only the image routes take an upload; elsewhere its fields would skip the form's checks.
      if (uploaded && !('upload' in matched.route && matched.route.upload))
        return sendError(reply, errors.bodyInvalid('This request takes a form body.'));
    } catch (err) {
      if (err instanceof ClerkError) return sendError(reply, err);
      throw err;
    }
    const info: FapiRequestInfo = {
      params: matched.params,
      body: uploaded?.body ?? (((req.body ?? {}) as FormBody) || {}),
      upload: uploaded?.upload ?? null,
      query,
      ip: req.ip,
      origin: typeof req.headers.origin === 'string' ? req.headers.origin : null,
      userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
      acceptLanguage:
        typeof req.headers['accept-language'] === 'string' ? req.headers['accept-language'] : null,
      cookies: req.cookies ?? {},
      sessionId:
        typeof query._clerk_session_id === 'string' && query._clerk_session_id
          ? query._clerk_session_id
          : null,
      botProtectionWaived: false,
    };

    try {
      const route = matched.route;
      const attempt = signInAttemptOf(method, route.path, info.body);
      if (attempt) markSignInAttempt(req, attempt);
      if (query.__clerk_testing_token !== undefined) {
        info.botProtectionWaived = await waivesBotProtection(
          deps.db,
          deps.config,
          query.__clerk_testing_token,
          deps.clock(),
        );
      }
      checkInput(route, info);
      if ('read' in route) {
        const clientToken = clientTokenOf(req, info, deps)?.token ?? null;
        const { bare } = await route.read({ ...info, deps, now: deps.clock(), clientToken });
        return reply.code(200).header('cache-control', 'no-store').send(bare);
      }
      for (const rule of route.rateLimits?.(info) ?? []) {
        const wait = await hit(deps.db, rule, deps.clock());
        if (wait > 0) return sendError(reply, errors.tooManyRequests(wait));
      }
      const outcome = await run(deps, req, info, route);
      // Re-set on every answer that carries the client, so `cookie_expires_at` is what the browser holds.
      if (outcome.clientCookie) {
        setCookie(req, reply, {
          name: CLIENT_COOKIE,
          value: outcome.clientCookie,
          path: deps.config.fapiPath,
          httpOnly: true,
        });
      }
      if (outcome.devBrowserToken) answerDevBrowserToken(req, reply, deps, outcome.devBrowserToken);
      if (outcome.clientUat !== null) {
        for (const name of ['__client_uat', `__client_uat_${deps.cookieSuffix}`]) {
          setCookie(req, reply, { name, value: String(outcome.clientUat), path: '/', httpOnly: false });
        }
      }
      reply.header('cache-control', 'no-store');
      if (outcome.location) return reply.code(outcome.status).header('location', outcome.location).send();
      if (outcome.error) return sendError(reply, outcome.error, { client: outcome.body });
      return reply.code(outcome.status).send(outcome.body);
    } catch (err) {
      if (err instanceof ClerkError) return sendError(reply, err);
      if (err instanceof DatabaseUnavailableError) return sendError(reply, errors.unavailable());
      if (err instanceof MailUnavailableError) {
        req.log.warn({ err: { message: err.message } }, 'mail server unavailable');
        return sendError(reply, errors.unavailable());
      }
      if (err instanceof SmsUnavailableError) {
        req.log.warn({ err: { message: err.message } }, 'SMS provider unavailable');
        return sendError(reply, err.recipientRejected ? phoneNumberUndeliverable() : errors.unavailable());
      }
      req.log.error(
        { err: { message: (err as Error).message, stack: (err as Error).stack } },
        'fapi handler failed',
      );
      return sendError(reply, errors.internal());
    }
  };
}

/**
 * The route's declared input (form-input.ts), parsed once here before anything runs. The form parsers
 * give only strings and lists of strings, which the declaration takes; a value of another shape is
 * refused as the JSON form parser refuses one (`form_param_format_invalid`). Parameters the route does
 * not declare pass untouched, as hosted Clerk ignores them.
 */
function checkInput(route: AnyFapiRoute, info: FapiRequestInfo): void {
  const schema = route.method === 'GET' ? route.input.query : route.input.body;
  const result = schema?.safeParse(route.method === 'GET' ? info.query : info.body);
  if (result && !result.success) {
    throw errors.paramFormatInvalid(String(result.error.issues[0]?.path[0] ?? 'body'), 'a string');
  }
}

/** The Frontend API call a request makes: its verb after `_method` tunnelling, and its path. */
function targetOf(req: FastifyRequest): { method: FapiMethod; path: string } {
  const query = req.query as Record<string, string | string[] | undefined>;
  const tunnelled = typeof query._method === 'string' ? query._method.toUpperCase() : undefined;
  const method = (req.method === 'POST' && tunnelled ? tunnelled : req.method) as FapiMethod;
  // Collapse repeated slashes (`/__clerk//api_keys`) and ignore trailing ones (`/me/backup_codes/`).
  const path =
    '/' +
    String((req.params as Record<string, string>)['*'] ?? '')
      .split('/')
      .filter(Boolean)
      .join('/');
  return { method, path };
}

interface Outcome {
  status: number;
  body: unknown;
  error: ClerkError | null;
  location?: string;
  clientCookie: string | null;
  /** A new dev-browser token for clerk-js (and for the dev-browser cookies when the browser sent those). */
  devBrowserToken: { token: string; cookie: boolean } | null;
  clientUat: number | null;
}

async function run(
  deps: IdentityDeps,
  req: FastifyRequest,
  info: FapiRequestInfo,
  route: FapiRoute,
): Promise<Outcome> {
  const presented = clientTokenOf(req, info, deps);
  const token = presented?.token ?? null;
  // Argon2 takes 50-100 ms: inside the transaction it would hold PGlite's only connection (every other
  // request waits) or one of PostgreSQL's pool of ten. Routes that hash do it here, before; their handler
  // uses the result only if it is bound to what it reads again under the transaction (the same stored
  // hash, the same password), else asks for the work (WorkOutsideTransaction): the transaction rolls back,
  // the work is done with no connection held, and the handler runs again.
  let prepared = (await route.beforeTransaction?.(info, deps, token)) ?? {};
  for (let asked = 0, raced = 0; ;) {
    try {
      return await runInTransaction(deps, req, info, route, presented, prepared);
    } catch (err) {
      // An account attempt decided on a lockout state that moved before it was confirmed: decide again.
      if (err instanceof AttemptRaced) {
        if (++raced > MAX_ATTEMPT_RACES) throw errors.tooManyRequests(1);
        continue;
      }
      if (!(err instanceof WorkOutsideTransaction)) throw err;
      if (++asked > MAX_WORK_OUTSIDE_TRANSACTION) throw errors.tooManyRequests(1);
      prepared = { ...prepared, ...(await err.work()) };
    }
  }
}

async function runInTransaction(
  deps: IdentityDeps,
  req: FastifyRequest,
  info: FapiRequestInfo,
  route: FapiRoute,
  asPresented: Presented | null,
  prepared: Prepared,
): Promise<Outcome> {
  let presented = asPresented;
  let token = presented?.token ?? null;
  // Rate-limit counts the handler checked, added by the transaction's last statement (countAtCommit).
  const counts: { rules: RateLimitRule[]; at: Date | null } = { rules: [], at: null };
  const work = async (tx: Queryable): Promise<Outcome> => {
    const now = deps.clock();
    // Writes lock the browser's client: two tabs cannot, say, both pass the single-session check.
    const lock = req.method !== 'GET';
    let client: ClientRow | null = token ? await findClientByToken(tx, token, lock) : null;
    if (presented && presented.via !== 'cookie') {
      ({ presented, client } = await devBrowserTokenInUrlRules(
        tx,
        route,
        info,
        { presented, client },
        lock,
        now,
      ));
      token = presented?.token ?? null;
    }
    // A credential replaced by a rotation is refused, not taken for a new browser: a second request that
    // raced the sign-in (a double submit) would otherwise open a second client and session, and clerk-js
    // answers a 401 by reading its client again, with the credential it holds now.
    if (token && !client && (await isReplacedClientToken(tx, token))) {
      throw presented?.via === 'cookie'
        ? errors.clientCredentialReplaced()
        : errors.devBrowserUnauthenticated();
    }
    let newClientToken: string | null = null;
    let stateChanged = false;
    const rotations = new Set<string>();
    const attempts = new AccountAttempts(deps.config.attemptDelay);
    const limitsRead = new Map<string, number>();
    const opened: SessionRow[] = [];
    const ctx: FapiContext = {
      ...info,
      deps,
      tx,
      now,
      client,
      async ensureClient() {
        if (ctx.client) return ctx.client;
        await countClientCreation(ctx, deps.config.clientCreationsPerIp, info.ip);
        const created = await createClient(tx, now);
        newClientToken = created.token;
        ctx.client = created.client;
        return created.client;
      },
      async updateClient(changes) {
        if (!ctx.client) throw new Error('updateClient before the client exists');
        ctx.client = await updateClient(tx, ctx.client.id, changes, now);
        return ctx.client;
      },
      sessionOpened(session, row) {
        if (row.id !== ctx.client?.id) throw new Error('sessionOpened on another client');
        ctx.client = row;
        opened.push(session);
      },
      countAtCommit(rule) {
        counts.rules.push(rule);
        counts.at = now;
      },
      async checkLimitAtCommit(rule) {
        const wait = limitsRead.get(rule.key) ?? (await waitIfReached(tx, rule, now));
        if (wait > 0) throw errors.tooManyRequests(wait);
        ctx.countAtCommit(rule);
      },
      limitsRead(waits) {
        for (const [key, wait] of waits) limitsRead.set(key, wait);
      },
      attempts,
      get clientCreatedNow() {
        return newClientToken !== null;
      },
      signInStateChanged() {
        stateChanged = true;
      },
      rotateClientCredential(clientId) {
        rotations.add(clientId);
      },
      prepared,
      devBrowserToken: client && presented && presented.via !== 'cookie' ? presented.token : null,
    };
    const result = await route.handler(ctx);
    // Before the client's JSON is read, which shows the accounts as these leave them.
    await attempts.settle(tx, now);
    // Only the credential this browser presented is replaced: a session opened on another browser's
    // client (an email link opened elsewhere) cannot be handed to that browser from here.
    const rotated =
      client && presented && rotations.has(client.id)
        ? await rotateClientToken(tx, client.id, presented.token)
        : null;
    // The client as the handler left it (ctx.updateClient keeps the row as written; the row is locked
    // for the transaction), for both its cookie date and its JSON.
    const answersClient = !('bare' in result) && !('redirect' in result);
    const current = ctx.client && (answersClient || stateChanged) ? ctx.client : null;
    const clientBody =
      current && answersClient
        ? await clientJSON(
            deps,
            tx,
            current,
            info.origin,
            now,
            attempts.asSettled('response' in result ? result.owners : undefined),
            newClientToken !== null ? opened : undefined,
          )
        : null;
    const clientUatValue = stateChanged
      ? current
        ? clientBody
          ? clientUatOf(current, clientBody.sessions.length)
          : await clientUat(tx, current, now)
        : 0
      : null;
    const fromCookie = client && presented?.via === 'cookie' ? token : null;
    const base: Pick<Outcome, 'clientCookie' | 'devBrowserToken' | 'clientUat'> = {
      clientCookie: newClientToken ?? (rotated && presented?.via === 'cookie' ? rotated : null),
      devBrowserToken:
        rotated && presented && presented.via !== 'cookie'
          ? { token: rotated, cookie: presented.via === 'dev-browser-cookie' }
          : null,
      clientUat: clientUatValue,
    };
    // Tokens are the hot path (every ~45 s per tab): they carry no client.
    if ('bare' in result) return { ...base, status: result.status ?? 200, body: result.bare, error: null };
    if ('redirect' in result)
      return {
        ...base,
        clientCookie: result.clientCookie ?? base.clientCookie,
        status: result.status ?? 303,
        body: null,
        error: null,
        location: result.redirect,
      };
    if (ctx.client && !base.clientCookie) base.clientCookie = fromCookie;
    if ('error' in result)
      return { ...base, status: result.error.status, body: clientBody, error: result.error };
    if ('clientAsResponse' in result)
      return { ...base, status: 200, body: { response: clientBody, client: null }, error: null };
    return {
      ...base,
      status: result.status ?? 200,
      body: { response: result.response, client: clientBody },
      error: null,
    };
  };
  // A route that writes nothing (GET /client) holds no transaction: on PGlite that would keep its only
  // connection from every other request for the whole answer.
  if (route.readOnly) return work(deps.db);
  return deps.db.transaction(async (tx) => {
    const outcome = await work(tx);
    if (counts.at) await hitAll(tx, counts.rules, counts.at);
    return outcome;
  });
}

type ClientTokenSource = 'cookie' | 'dev-browser-cookie' | 'dev-browser-url';
/** The browser's client credential as it came, and where from. */
type Presented = { token: string; via: ClientTokenSource };

/**
 * The browser's client: our HttpOnly cookie, or a dev-browser token with development keys only (a token in
 * a URL leaks more easily than a cookie, so production keys never accept one).
 */
function clientTokenOf(req: FastifyRequest, info: FapiRequestInfo, deps: IdentityDeps): Presented | null {
  const cookie = req.cookies?.[CLIENT_COOKIE];
  if (cookie) return { token: cookie, via: 'cookie' };
  if (deps.config.instanceKeys !== 'development') return null;
  // clerk-js keeps its token in a cookie on the app's origin, which is ours, and sends the same one in the
  // URL. The browser's own cookie wins: a link carrying someone else's `__clerk_db_jwt` (a navigation to
  // an email link or a ticket) must not make this browser act as that client.
  const devCookie =
    req.cookies?.[`${DEV_BROWSER_COOKIE}_${deps.cookieSuffix}`] || req.cookies?.[DEV_BROWSER_COOKIE];
  if (devCookie) return { token: devCookie, via: 'dev-browser-cookie' };
  const devBrowser = info.query[DEV_BROWSER_COOKIE];
  if (typeof devBrowser === 'string' && devBrowser) return { token: devBrowser, via: 'dev-browser-url' };
  return null;
}

/**
 * The URL's dev-browser token and its client, when it names a live one: what a route that prefers it over
 * a dead cookie (`devBrowserTokenInUrlOverDeadCookie`) takes.
 */
async function liveDevBrowserTokenInUrl(
  tx: Queryable,
  info: FapiRequestInfo,
  lock: boolean,
): Promise<{ presented: Presented; client: ClientRow } | null> {
  const token = info.query[DEV_BROWSER_COOKIE];
  if (typeof token !== 'string' || !token) return null;
  const client = await findClientByToken(tx, token, lock);
  return client ? { presented: { token, via: 'dev-browser-url' }, client } : null;
}

/**
 * Development keys, the routes that declare it (the handshake): when the URL's `__clerk_db_jwt` is taken over
 * the dev-browser token the browser presented, and the client that goes with it.
 */
async function devBrowserTokenInUrlRules(
  tx: Queryable,
  route: FapiRoute,
  info: FapiRequestInfo,
  found: { presented: Presented; client: ClientRow | null },
  lock: boolean,
  now: Date,
): Promise<{ presented: Presented | null; client: ClientRow | null }> {
  const { presented, client } = found;
  // A navigation an application's SDK built with the dev-browser token it holds: a dead one counts as none,
  // or the URL's live one is taken (FapiRoute.devBrowserTokenInUrlOverDeadCookie).
  if (!client && route.devBrowserTokenInUrlOverDeadCookie) {
    const fromUrl =
      presented.via === 'dev-browser-cookie' ? await liveDevBrowserTokenInUrl(tx, info, lock) : null;
    return fromUrl ?? { presented: null, client: null };
  }
  // A page the product sent back to a satellite with its signed-in token: that token over a signed-out one
  // of the satellite's own (FapiRoute.devBrowserTokenInUrlOverSignedOutCookie). Never over a signed-in
  // cookie, and only a live URL token: a replaced one (replayed) opens nothing.
  if (
    client &&
    presented.via === 'dev-browser-cookie' &&
    route.devBrowserTokenInUrlOverSignedOutCookie?.(info) &&
    !(await hasSignedInSession(tx, client.id, now))
  ) {
    const fromUrl = await liveDevBrowserTokenInUrl(tx, info, lock);
    if (fromUrl && fromUrl.client.id !== client.id && (await hasSignedInSession(tx, fromUrl.client.id, now)))
      return fromUrl;
  }
  return found;
}

/**
 * clerk-js takes the header; a navigation (an email link, a ticket) is no fetch of clerk-js, so the
 * cookies it reads its token from are rewritten too, with its names and attributes (readable by script,
 * path `/`, a year), when the browser sent them to us.
 */
function answerDevBrowserToken(
  req: FastifyRequest,
  reply: FastifyReply,
  deps: IdentityDeps,
  answer: { token: string; cookie: boolean },
) {
  reply.header(DEV_BROWSER_HEADER, answer.token);
  if (!answer.cookie) return;
  for (const name of [DEV_BROWSER_COOKIE, `${DEV_BROWSER_COOKIE}_${deps.cookieSuffix}`]) {
    setCookie(req, reply, { name, value: answer.token, path: '/', httpOnly: false });
  }
}

function sendError(reply: FastifyReply, err: ClerkError, extra: Record<string, unknown> = {}) {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(err.status).send(errorBody(err, extra.client ? extra : {}));
}
