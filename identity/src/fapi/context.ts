import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import type { ClerkError } from '../errors.ts';
import type { RateLimitRule } from '../store/rate-limits.ts';
import type { ClientChanges } from '../store/clients.ts';
import type { ClientRow, SessionRow } from '../store/rows.ts';
import type { FormBody } from './form.ts';
import type { Upload } from './images/upload.ts';
import type { Prepared } from './prepared-work.ts';
import type { Owner } from '../users/load-users.ts';
import type { AccountAttempts } from '../abuse/account-attempts.ts';
import type { RouteDeclaration, RouteMethod } from '../http/route-declaration.ts';

export interface FapiRequestInfo {
  params: Record<string, string>;
  body: FormBody;
  query: Record<string, string | string[] | undefined>;
  ip: string;
  /** The page origin (Origin header), used as the token's `azp`. */
  origin: string | null;
  /** The User-Agent header, for the session's activity (Active devices). */
  userAgent: string | null;
  /** The Accept-Language header: the language of the codes and links this request mails or texts. */
  acceptLanguage: string | null;
  /** `_clerk_session_id`: which session of the client the call acts for. */
  sessionId: string | null;
  /** The request's cookies (the consent page's interaction binding, oauth-provider/). */
  cookies: Record<string, string | undefined>;
  /** The file of an upload request (logo, profile image), read before the transaction starts. */
  upload: Upload | null;
  /**
   * A live testing token of this development instance came as `__clerk_testing_token` (@clerk/testing):
   * bot protection (the captcha) asks nothing of this request (testing-tokens/).
   */
  botProtectionWaived: boolean;
}

export interface FapiContext extends FapiRequestInfo {
  deps: IdentityDeps;
  tx: Queryable;
  now: Date;
  client: ClientRow | null;
  /** The client of this browser, created (and its cookie set) on first use. */
  ensureClient(): Promise<ClientRow>;
  /**
   * Changes this browser's client (which must exist: ensureClient first) and keeps `client` the row as
   * written, so the answer's client JSON needs no second read. The only writer of the client's columns
   * that its JSON shows: a write that went around it would answer a stale client.
   */
  updateClient(changes: ClientChanges): Promise<ClientRow>;
  /**
   * A session opened as the client's active one, by the statement that also wrote the client (`client`,
   * kept as written). A client this request created has no other sessions: its JSON lists these unread.
   */
  sessionOpened(session: SessionRow, client: ClientRow): void;
  /**
   * Adds one to a rate limit's counter as the transaction's last statement (with the others, in one),
   * for a limit the caller has just checked (`waitIfReached`): its row is then locked only for the commit.
   */
  countAtCommit(rule: RateLimitRule): void;
  /**
   * A limit checked now (`429 too_many_requests` when its window is full) and counted at commit
   * (countAtCommit). Not read again when `limitsRead` gave it.
   */
  checkLimitAtCommit(rule: RateLimitRule): Promise<void>;
  /**
   * The waits of limits this request will check, read already in this transaction with something else
   * (store/rate-limits.ts `waitsOfWindows`): checkLimitAtCommit uses them instead of reading again.
   */
  limitsRead(waits: Map<string, number>): void;
  /**
   * Attempts on accounts decided in this transaction, and the sessions it opened: their lockout state is
   * confirmed, and the sign-ins recorded, by the transaction's last statements (abuse/account-attempts.ts).
   */
  readonly attempts: AccountAttempts;
  /** The client was created by this request (by ensureClient): it has no earlier sessions. */
  readonly clientCreatedNow: boolean;
  /** Marks the response as changing sign-in state, so `__client_uat` is rewritten. */
  signInStateChanged(): void;
  /**
   * A session of `clientId` was opened or ended: if that is this browser's client, it gets a new credential
   * when the transaction commits (cookie or dev-browser token) and the old one finds nothing (session fixation).
   */
  rotateClientCredential(clientId: string): void;
  /** What the route's `beforeTransaction` made (`{}` without one). */
  prepared: Prepared;
  /**
   * Development keys: the dev-browser token (`__clerk_db_jwt`, cookie or URL) `client` was found by; null
   * when the `__client` cookie or nothing identified the browser.
   */
  devBrowserToken: string | null;
}

export type FapiResult =
  /**
   * `{response, client}` with the client piggy-backed. `owners`: users the response was made from after
   * the handler's last write, which the client's JSON reuses instead of reading them again.
   */
  | { response: unknown; status?: number; owners?: Map<string, Owner> }
  /** The resource alone (tokens, dev browser). */
  | { bare: unknown; status?: number }
  /** The client itself as the response (GET/DELETE /client). */
  | { clientAsResponse: true }
  /**
   * A browser navigation (ticket links) sent on with 303 (or `status`) to `redirect`; the transaction
   * commits.
   */
  | {
      redirect: string;
      status?: 303 | 307;
      /** A credential for the browser's `__client` cookie on this answer's domain (a satellite's link). */
      clientCookie?: string;
    }
  /** An error whose side effects (attempt counters, lockouts) must be kept: the transaction commits. */
  | { error: ClerkError };

export type FapiMethod = RouteMethod;

/**
 * A route's declaration (http/route-declaration.ts): under /v1; `input` is made with `formInput`
 * (form-input.ts), the body's parameters, or the query's for GET.
 */
export interface FapiRoute extends RouteDeclaration {
  /** Counted before the transaction so they persist whatever the outcome. */
  rateLimits?: (req: FapiRequestInfo) => RateLimitRule[];
  /**
   * Slow work (argon2) done before the transaction, with plain reads; its result is `ctx.prepared`.
   * `clientToken` is the browser's client token, to read only what belongs to it.
   */
  beforeTransaction?: (
    req: FapiRequestInfo,
    deps: IdentityDeps,
    clientToken: string | null,
  ) => Promise<Prepared>;
  handler: (ctx: FapiContext) => Promise<FapiResult>;
  /**
   * The handler changes nothing of the client (GET /client): it runs outside a transaction, and answers
   * with the client row read before it rather than reading it again. It must not call ensureClient().
   */
  readOnly?: boolean;
  /** Takes an image upload (multipart, or a raw octet-stream body); other routes refuse one. */
  upload?: boolean;
  /**
   * Development keys: when the browser's `__clerk_db_jwt` cookie names no live client (replaced or
   * unknown), the URL's `__clerk_db_jwt` is taken instead, as from a browser without a token. For a
   * navigation an application's SDK builds with the token it holds (the handshake): on a satellite's
   * origin, the other domain's sign-in or sign-out may have replaced the token this origin's cookie keeps.
   */
  devBrowserTokenInUrlOverDeadCookie?: boolean;
  /**
   * Development keys: when this holds for the request, the URL's live `__clerk_db_jwt` of a signed-in client
   * is taken over a live `__clerk_db_jwt` cookie whose client has no signed-in session. For the handshake of
   * a page the product sent back to a satellite (`__clerk_synced=true`): the satellite's clerk-js may
   * meanwhile have made itself a new, signed-out token, which would otherwise hide the signed-in one the
   * product sent.
   */
  devBrowserTokenInUrlOverSignedOutCookie?: (req: FapiRequestInfo) => boolean;
}

/** What a read-only route gets: the request, the browser's client credential as presented, the clock. */
export interface FapiReadRequest extends FapiRequestInfo {
  deps: IdentityDeps;
  now: Date;
  /** The browser's client token (cookie, or dev-browser token with development keys), not yet looked up. */
  clientToken: string | null;
}

/**
 * A route answered from plain reads, with no transaction and no lock on the browser's client: token
 * minting, which clerk-js calls every ~50 s per tab. It writes nothing (activity goes to
 * `deps.activity`), sets no cookie and answers a bare resource, so no commit, credential rotation or
 * client is needed; everything it checks it reads in one go, so what it answers is the state at one instant.
 */
export interface FapiReadRoute extends RouteDeclaration {
  read: (req: FapiReadRequest) => Promise<{ bare: unknown }>;
}

export type AnyFapiRoute = FapiRoute | FapiReadRoute;
