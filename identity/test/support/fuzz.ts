import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { Queryable } from '../../src/db/database.ts';
import { CLIENT_ERROR_CODES } from '../../src/errors.ts';
import type { Browser, Harness, Json } from './harness.ts';
import { BAPI, CLERK_QUERY, FAPI, PUBLIC_URL, uniqueEmail } from './harness.ts';
import { addMember, createOrganization, newMember, type Member } from './organizations.ts';
import type { BapiFieldKind, BapiQueryKind } from '../../src/bapi/json-input.ts';
import type { FormKind } from '../../src/fapi/form-input.ts';

/**
 * Fuzzing the Frontend and Backend APIs with bad input. Every case is a request that is wrong for a
 * definite reason (a body that cannot be read, a value of the wrong type or size, an id that names
 * nothing), so the answer must be a 4xx in Clerk's error envelope and the database must not change.
 * Cases come from a seeded PRNG: the seed is printed, and `FUZZ_SEED=<n>` replays a run.
 */

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_240_601);
/** Cases per route; `FUZZ_CASES=200` runs many more locally. */
export const FUZZ_CASES = Number(process.env.FUZZ_CASES ?? 16);

/** mulberry32: small, fast and good enough to pick cases; the same seed gives the same cases. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** Lower-case letters and digits, as in our ids. */
  word(length: number): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = this.int(256);
    return out;
  }
}

/** A seed per route, so adding a route does not change the cases of the others. */
export function routeSeed(seed: number, key: string): number {
  let h = seed >>> 0;
  for (const ch of key) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

// ---------------------------------------------------------------------------------------------------
// Database snapshot

/**
 * Tables whose rows legitimately change on a refused request:
 * - `rate_limits`: every attempt counts against its window before it is judged, refused ones included
 *   (that is what stops guessing), so the counters move on every fuzzed request.
 * The development outbox (`outbox`) stays in the snapshot: a refused request must send no mail or SMS.
 */
export const SNAPSHOT_EXCLUDED = new Set(['rate_limits']);

export type Snapshot = Map<string, string[]>;

export async function snapshot(db: Queryable): Promise<Snapshot> {
  const tables = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out: Snapshot = new Map();
  for (const { name } of tables) {
    if (SNAPSHOT_EXCLUDED.has(name)) continue;
    const rows = await db.query<{ r: string }>(`SELECT row_to_json(t)::text AS r FROM "${name}" t`);
    out.set(name, rows.map((row) => row.r).sort());
  }
  return out;
}

/** What changed between two snapshots, as lines (rows shortened); empty when nothing did. */
export function snapshotDiff(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  const short = (row: string) => (row.length > 300 ? `${row.slice(0, 300)}…` : row);
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const a = new Set(before.get(table) ?? []);
    const b = new Set(after.get(table) ?? []);
    for (const row of a) if (!b.has(row)) lines.push(`${table} - ${short(row)}`);
    for (const row of b) if (!a.has(row)) lines.push(`${table} + ${short(row)}`);
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------------
// Error codes

/**
 * Every 4xx code identity declares (errors.ts `CLIENT_ERROR_CODES`, the only codes ClerkError takes), so
 * an answer with a made-up code, or a 5xx code behind a 4xx status, is caught.
 */
export function knownClientErrorCodes(): Set<string> {
  return new Set(CLIENT_ERROR_CODES);
}

// ---------------------------------------------------------------------------------------------------
// The world the fuzzer runs in

export interface World {
  owner: Member;
  member: Member;
  other: Member;
  /** A browser with a pending sign-in (for the owner's address) and a pending sign-up. */
  visitor: Browser;
  signInId: string;
  signUpId: string;
  organizationId: string;
  /** A pending invitation of the owner's organisation. */
  invitationId: string;
  /** A pending invitation of the owner to another organisation. */
  ownerInvitationId: string;
  emailAddressId: string;
  actorTokenId: string;
  signInTokenId: string;
  /** A pending invitation to the application. */
  applicationInvitationId: string;
}

/**
 * A realistic signed-in world, so that ids in paths resolve to real objects and a request gets as far
 * as its input checks: the owner of an organisation with a member and a pending invitation, invited
 * themselves to another organisation; a browser midway through a sign-in and a sign-up.
 */
export async function buildWorld(h: Harness): Promise<World> {
  const owner = await newMember(h, 'owner', { firstName: 'Olga', lastName: 'Owner' });
  const member = await newMember(h, 'member', { firstName: 'Max', lastName: 'Member' });
  const other = await newMember(h, 'other', { firstName: 'Oscar', lastName: 'Other' });
  const org = await createOrganization(owner, `Fuzz ${owner.userId.slice(-6)}`);
  await addMember(owner, org.id, member, 'org:member');
  const invited = await owner.browser.post(`/organizations/${org.id}/invitations`, {
    email_address: uniqueEmail('invitee'),
    role: 'org:member',
  });
  assert.equal(invited.status, 200, JSON.stringify(invited.body));
  const otherOrg = await createOrganization(other, `Other ${other.userId.slice(-6)}`);
  const invitedOwner = await other.browser.post(`/organizations/${otherOrg.id}/invitations`, {
    email_address: owner.email,
    role: 'org:member',
  });
  assert.equal(invitedOwner.status, 200, JSON.stringify(invitedOwner.body));

  const visitor = h.browser();
  const signIn = await visitor.post('/client/sign_ins', { identifier: member.email });
  assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
  const signUp = await visitor.post('/client/sign_ups', { email_address: uniqueEmail('visitor') });
  assert.equal(signUp.status, 200, JSON.stringify(signUp.body));

  // An unverified second address: a verified one answers its verification calls without reading them.
  const added = await owner.browser.post('/me/email_addresses', { email_address: uniqueEmail('second') });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  const actor = await bapiRequest(h, 'POST', '/v1/actor_tokens', {
    user_id: member.userId,
    actor: { sub: owner.userId },
    expires_in_seconds: 3600,
  });
  assert.equal(actor.statusCode, 200, actor.body);
  const signInToken = await bapiRequest(h, 'POST', '/v1/sign_in_tokens', {
    user_id: member.userId,
    expires_in_seconds: 3600,
  });
  assert.equal(signInToken.statusCode, 200, signInToken.body);
  const applicationInvitation = await bapiRequest(h, 'POST', '/v1/invitations', {
    email_address: uniqueEmail('app-invitee'),
  });
  assert.equal(applicationInvitation.statusCode, 200, applicationInvitation.body);
  return {
    owner,
    member,
    other,
    visitor,
    signInId: signIn.body.response.id,
    signUpId: signUp.body.response.id,
    organizationId: org.id,
    invitationId: invited.body.response.id,
    ownerInvitationId: invitedOwner.body.response.id,
    emailAddressId: added.body.response.id,
    actorTokenId: actor.json().id,
    signInTokenId: signInToken.json().id,
    applicationInvitationId: applicationInvitation.json().id,
  };
}

export function bapiRequest(
  h: Harness,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method,
    url: `${BAPI}${path}`,
    headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The real object a path parameter names in the world (`name` after `segment`). */
export function realId(world: World, segment: string, name: string): string {
  if (name === 'userId') return world.member.userId;
  if (name === 'invitationId') return world.invitationId;
  if (name === 'template') return 'fuzz_template';
  const bySegment: Record<string, string> = {
    sign_ins: world.signInId,
    sign_ups: world.signUpId,
    sessions: world.owner.sessionId,
    clients: world.owner.client.id,
    email_addresses: world.emailAddressId,
    // The owner has no phone number: a well-formed id of one that does not exist.
    phone_numbers: 'idn_2fuzzphonenumber00000000000',
    // Nobody has connected an account, and no provider is configured: well-formed names of nothing.
    external_accounts: 'eac_2fuzzexternalaccount000000000',
    // Nobody has a passkey (passkeys are off here): a well-formed id of nothing.
    passkeys: 'idn_2fuzzpasskey000000000000000',
    // Nobody has a web3 wallet (web3 is off here): a well-formed id of nothing.
    web3_wallets: 'idn_2fuzzweb3wallet0000000000000',
    oauth_access_tokens: 'oauth_google',
    organizations: world.organizationId,
    organization_memberships: world.organizationId,
    organization_invitations: world.ownerInvitationId,
    users: world.owner.userId,
    actor_tokens: world.actorTokenId,
    sign_in_tokens: world.signInTokenId,
    invitations: world.applicationInvitationId,
    avatars: 'avatar_placeholder.svg',
    // No enterprise connection is configured: well-formed names of nothing.
    acs: 'samlc_fuzzconnection',
    saml_connections: 'samlc_2fuzzsamlconnection0000000',
    // Nobody holds an API key: a well-formed id of nothing.
    api_keys: 'ak_2fuzzapikey000000000000000000',
    // No OAuth application is registered: a well-formed id of nothing.
    oauth_applications: 'oa_2fuzzoauthapplication00000000',
    // No authorization is under way and nobody has allowed an application: names of nothing.
    oauth_consent: 'fuzzinteraction0000000000000',
    oauth_consents: 'oa_2fuzzoauthapplication00000000',
    // The waitlist is empty here: a well-formed id of nothing.
    waitlist_entries: 'wle_2fuzzwaitlistentry0000000000',
    // The lists and the allowed redirect URLs are empty here: well-formed ids of nothing.
    allowlist_identifiers: 'alid_2fuzzallowlistidentifier000',
    blocklist_identifiers: 'blid_2fuzzblocklistidentifier000',
    redirect_urls: 'ru_2fuzzredirecturl00000000000000',
    // No JWT template exists here: a well-formed id of nothing.
    jwt_templates: 'jtmp_2fuzzjwttemplate000000000000',
    // No satellite domain is declared here: a well-formed id of nothing.
    domains: 'dmn_2fuzzdomain00000000000000000',
    // No machine exists here, nor any M2M token: well-formed ids of nothing.
    machines: 'mch_2fuzzmachine0000000000000000',
    scopes: 'mch_2fuzzothermachine00000000000',
    m2m_tokens: 'm2m_2fuzzm2mtoken000000000000000',
    // Billing: a plan of the catalogue; nobody has subscribed, so well-formed ids of nothing.
    plans: 'cplan_pro_user',
    subscription_items: 'csubi_2fuzzsubscriptionitem00000',
    statements: 'cstmt_2fuzzstatement0000000000000',
    payment_attempts: 'cpa_2fuzzpaymentattempt000000000',
    checkouts: 'cchk_2fuzzcheckout000000000000000',
    payment_sources: 'cps_2fuzzpaymentsource0000000000',
    // No webhook endpoint is configured here: a well-formed id of no delivery.
    webhook_deliveries: 'msg_2fuzzwebhookdelivery000000000',
  };
  const id = bySegment[segment];
  if (!id) throw new Error(`no object in the fuzz world for :${name} after /${segment}/`);
  return id;
}

/** Path parameters of a route path (`/a/:id/b/:userId`), each with the segment before it. */
export function pathParams(path: string): { name: string; segment: string; index: number }[] {
  const parts = path.split('/');
  return parts.flatMap((part, index) =>
    part.startsWith(':') ? [{ name: part.slice(1), segment: parts[index - 1] ?? '', index }] : [],
  );
}

/** The route path with every parameter replaced by its real id (encoded) or by `override`. */
export function resolvePath(world: World, path: string, override?: { index: number; raw: string }): string {
  const parts = path.split('/');
  return parts
    .map((part, index) => {
      if (!part.startsWith(':')) return part;
      if (override?.index === index) return override.raw;
      return encodeURIComponent(realId(world, parts[index - 1] ?? '', part.slice(1)));
    })
    .join('/');
}

// ---------------------------------------------------------------------------------------------------
// Bad values

export const MEGABYTE = 1_000_000;

/** Wrong ids for a path segment, already in their raw (URL) form. */
export function badPathIds(rng: Rng, real: string): { label: string; raw: string }[] {
  const prefix = /^[a-z]+_/.exec(real)?.[0] ?? 'x_';
  return [
    { label: 'an id of the right prefix that names nothing', raw: `${prefix}${rng.word(27)}` },
    { label: 'an encoded ../', raw: '..%2F..%2Fclient' },
    { label: 'a NUL byte', raw: `${encodeURIComponent(real)}%00` },
    { label: 'a very long id', raw: `${prefix}${'a'.repeat(10_000 + rng.int(50_000))}` },
    { label: 'a lone surrogate', raw: `${prefix}%ED%A0%80` },
    { label: 'an RTL override', raw: `${prefix}${encodeURIComponent('\u202e')}${rng.word(8)}` },
    { label: 'a broken escape', raw: `${prefix}%zz` },
    { label: 'an SQL fragment', raw: encodeURIComponent(`${real}' OR '1'='1`) },
    { label: 'another id of another kind', raw: `user_${rng.word(27)}` },
  ];
}

/**
 * Every wrong id of badPathIds and more control characters, for the exhaustive path-parameter cases: each
 * names nothing and must be a 4xx before any query (PostgreSQL refuses NUL in text with a 5xx).
 */
export function everyBadPathId(rng: Rng, real: string): { label: string; raw: string }[] {
  const real_ = encodeURIComponent(real);
  return [
    ...badPathIds(rng, real),
    { label: 'only a NUL byte', raw: '%00' },
    { label: 'a control character', raw: `${real_}%01` },
    { label: 'a newline', raw: `${real_}%0A` },
    { label: 'DEL', raw: `${real_}%7F` },
    { label: 'an id one character over 256', raw: 'a'.repeat(257) },
  ];
}

/**
 * A request per path parameter of `route` and per wrong id of everyBadPathId, built by `to` from the
 * path with that one parameter replaced.
 */
export function pathParamCases(
  route: { path: string },
  world: World,
  rng: Rng,
  to: (path: string, label: string) => FuzzRequest,
): FuzzRequest[] {
  return pathParams(route.path).flatMap((p) =>
    everyBadPathId(rng, realId(world, p.segment, p.name)).map((bad) =>
      to(resolvePath(world, route.path, { index: p.index, raw: bad.raw }), `:${p.name} is ${bad.label}`),
    ),
  );
}

/** A 1 MB string of one random letter, or of random printable characters. */
export function megabyte(rng: Rng): string {
  if (rng.int(2) === 0) return rng.pick(['a', 'Z', '9', ' ']).repeat(MEGABYTE);
  return rng.word(MEGABYTE);
}

/** Nested brackets `a[b][c]…` as form keys deep `depth`. */
export function deepKey(depth: number): string {
  let key = 'a';
  for (let i = 0; i < depth; i++) key += `[b${i}]`;
  return key;
}

/** `{"a":{"a":…}}` nested `depth` deep, as JSON text (built without recursion). */
export function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

// ---------------------------------------------------------------------------------------------------
// Requests and expectations

/**
 * - `reject`: wrong for a definite reason: a 4xx in Clerk's envelope.
 * - `tolerate`: only unknown or repeated query parameters of a read-only route, which Clerk's
 *   clients add freely (`_clerk_js_version`, `__clerk_db_jwt`, …): a 2xx is fine too.
 * - `navigate`: a browser navigation (`/v1/verify`, `/v1/tickets/accept`): a 303 into our own app
 *   (never elsewhere) carrying the failure, or a 4xx.
 */
export type Expectation = 'reject' | 'tolerate' | 'navigate';

export interface FuzzRequest {
  label: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  expect: Expectation;
}

/** A request shortened for a failure message (1 MB bodies are not printed). */
export function describeRequest(req: FuzzRequest): string {
  const short = (s: string) => (s.length > 400 ? `${s.slice(0, 400)}… (${s.length} chars)` : s);
  const payload =
    req.payload === undefined
      ? ''
      : Buffer.isBuffer(req.payload)
        ? ` body=<${req.payload.length} bytes: ${req.payload.subarray(0, 40).toString('hex')}…>`
        : ` body=${JSON.stringify(short(req.payload))}`;
  return `[${req.label}] ${req.method} ${short(req.url)} content-type=${req.headers['content-type'] ?? '-'}${payload}`;
}

export interface Verdict {
  ok: boolean;
  problem?: string;
}

/** Checks an answer against the expectation; the problem says what was wrong. */
export function judge(req: FuzzRequest, res: LightMyRequestResponse, known: Set<string>): Verdict {
  const status = res.statusCode;
  if (status >= 500) return { ok: false, problem: `answered ${status}: ${res.body.slice(0, 300)}` };
  if (status >= 200 && status < 300) {
    if (req.expect === 'tolerate') return { ok: true };
    return { ok: false, problem: `accepted (${status}): ${res.body.slice(0, 300)}` };
  }
  if (status >= 300 && status < 400) {
    if (req.expect !== 'navigate') return { ok: false, problem: `redirected (${status})` };
    const location = String(res.headers.location ?? '');
    if (!location.startsWith(`${PUBLIC_URL}/`) && !/^\/(?!\/)/.test(location)) {
      return { ok: false, problem: `redirected out of the app, to ${location.slice(0, 200)}` };
    }
    return { ok: true };
  }
  if (status < 400) return { ok: false, problem: `answered ${status}` };
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) {
    return {
      ok: false,
      problem: `answered ${status} as ${type || 'no content type'}: ${res.body.slice(0, 200)}`,
    };
  }
  let body: Json;
  try {
    body = JSON.parse(res.body);
  } catch {
    return { ok: false, problem: `answered ${status} with a body that is not JSON` };
  }
  const envelope = envelopeProblem(body, known);
  return envelope
    ? { ok: false, problem: `answered ${status}: ${envelope}: ${res.body.slice(0, 300)}` }
    : { ok: true };
}

/** Clerk's error envelope: `{errors: [{code, message, long_message, meta}], clerk_trace_id?, client?}`. */
function envelopeProblem(body: Json, known: Set<string>): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'not an object';
  for (const key of Object.keys(body)) {
    if (!['errors', 'clerk_trace_id', 'client', 'meta'].includes(key)) return `unexpected key ${key}`;
  }
  if (!Array.isArray(body.errors) || body.errors.length === 0) return 'no errors';
  for (const e of body.errors) {
    if (!e || typeof e !== 'object') return 'an error that is not an object';
    if (typeof e.code !== 'string' || !known.has(e.code)) return `unknown code ${String(e.code)}`;
    if (typeof e.message !== 'string' || !e.message) return 'no message';
    if (e.long_message !== undefined && typeof e.long_message !== 'string')
      return 'long_message not a string';
    if (e.meta !== undefined && (typeof e.meta !== 'object' || e.meta === null)) return 'meta not an object';
  }
  return null;
}

/** The Frontend API query clerk-js adds, and `_method` for the tunnelled verbs. */
export function fapiUrl(path: string, method: string, extra = '', prefix = '/v1'): string {
  const search = new URLSearchParams(CLERK_QUERY);
  if (method !== 'GET' && method !== 'POST') search.set('_method', method);
  return `${FAPI}${prefix}${path}?${search}${extra ? `&${extra}` : ''}`;
}

/** Sends a fuzzed request as `browser` (its cookies, Origin and IP) or with the BAPI secret key. */
export function send(
  h: Harness,
  req: FuzzRequest,
  as: Browser | 'bapi',
  rng: Rng,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...req.headers };
  if (headers.authorization === `Bearer ${BAPI_KEY_PLACEHOLDER}`) {
    headers.authorization = `Bearer ${h.identity.secretKey}`;
  }
  if (as !== 'bapi') {
    if (as.origin) headers.origin = as.origin;
    if (as.jar.size) headers.cookie = [...as.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  // A fresh address per request, so per-IP rate limits do not hide the input checks.
  const remoteAddress = `10.${rng.int(250) + 1}.${rng.int(250) + 1}.${rng.int(250) + 1}`;
  return h.app.inject({
    method: req.method,
    url: req.url,
    headers,
    payload: req.payload,
    remoteAddress,
  });
}

// ---------------------------------------------------------------------------------------------------
// Frontend API cases

/**
 * What a Frontend API parameter holds (the route tables' FormKind), which decides the values that are wrong
 * for it. Every kind also gets the generic bad values (repeated, 1 MB, NUL, lone surrogate, broken escapes).
 */
export type FapiKind = FormKind;

export interface FapiSpec {
  /** Form parameters the route reads (body; for GET, the query). */
  params?: Record<string, FapiKind>;
  /** Read-only: unknown parameters alone may be ignored (a 2xx), as long as nothing changes. */
  readOnly?: boolean;
  /** A browser navigation answered with a 303 into the app. */
  navigate?: boolean;
  /** Takes an image upload (multipart or raw octet-stream). */
  upload?: boolean;
}

/** Values wrong for a kind, as JS strings (encoded when sent); none for free text and secrets. */
const FAPI_KIND_INVALID: Record<FapiKind, string[]> = {
  text: [],
  code: [],
  password: [],
  id: ['idn_2doesnotexist0000000000000', '../client', '\u202eidn_x', 'x'.repeat(300)],
  enum: ['nonsense', 'email_code\u202e', '__proto__', 'EMAIL_CODE'],
  bool: ['maybe', 'TRUE', 'yes', '2', 'null'],
  email: ['not-an-email', 'a@', '@example.com', 'a b@example.com', 'a@b@example.com', 'a\u202e@example.com'],
  json: ['{', '[1,2]', '"x"', '1e309', 'null', '{"a":'],
  // Only what must be refused: a relative value (`not a url`) resolves on our own origin.
  url: [
    'javascript:alert(1)',
    'https://evil.example/x',
    '//evil.example/x',
    'https://localhost:3000.evil.example/',
  ],
  phone: ['abc', '+1', '+999999999999999999999', '\u202e+15555550100'],
  token: ['garbage', 'x'.repeat(5000), 'eyJhbGciOiJub25lIn0.e30.'],
  list: [],
  page: ['abc', '-1', '1e309', 'NaN', '1.5', '99999999999999999999', 'Infinity', '0x10', ' 1'],
};

/** Percent-encoded values that are bad whatever the parameter: not text, or not one value. */
const RAW_BAD_VALUES = [
  { label: 'a NUL byte', raw: 'a%00b' },
  { label: 'a lone high surrogate', raw: '%ED%A0%80' },
  { label: 'a lone low surrogate', raw: 'x%ED%B0%80' },
  { label: 'an overlong NUL', raw: '%C0%80' },
  { label: 'a code point above U+10FFFF', raw: '%F4%90%80%80' },
  { label: 'a stray continuation byte', raw: '%80abc' },
  { label: 'a broken escape', raw: 'a%zz' },
  { label: 'a truncated escape', raw: 'a%E0%A4' },
];

const MALFORMED_FORMS = ['a=%zz&&=', '%', 'a=%E0%A4', '=x', 'a=%', '&=&=', 'a=%G0', '%%%%=1'];

const enc = encodeURIComponent;

export function fapiCases(
  route: { method: FuzzRequest['method']; path: string },
  spec: FapiSpec,
  world: World,
  rng: Rng,
  count: number,
): FuzzRequest[] {
  const { method, path } = route;
  const hasBody = method !== 'GET';
  const ids = pathParams(path);
  const params = Object.entries(spec.params ?? {});
  const invalidByKind = params.filter(([, kind]) => FAPI_KIND_INVALID[kind].length > 0);
  const expect: Expectation = spec.navigate ? 'navigate' : 'reject';
  const wire = hasBody ? 'POST' : 'GET';
  const form = 'application/x-www-form-urlencoded';
  const resolved = () => resolvePath(world, path);
  const anyParam = () => (params.length ? rng.pick(params)[0] : rng.pick(['a', 'name', 'x']));
  const kindInvalidPair = (): string => {
    const [name, kind] = rng.pick(invalidByKind);
    return `${enc(name)}=${enc(rng.pick(FAPI_KIND_INVALID[kind]))}`;
  };
  const badPath = (): { label: string; path: string } => {
    const p = rng.pick(ids);
    const real = realId(world, p.segment, p.name);
    const bad = rng.pick(badPathIds(rng, real));
    return {
      label: `:${p.name} is ${bad.label}`,
      path: resolvePath(world, path, { index: p.index, raw: bad.raw }),
    };
  };
  /** A request carrying `pairs` (already encoded `k=v`) in the body, or in the query for GET. */
  const withPairs = (
    label: string,
    pairs: string[],
    at = resolved(),
    exp: Expectation = expect,
  ): FuzzRequest =>
    hasBody
      ? {
          label,
          method: wire,
          url: fapiUrl(at, method),
          headers: { 'content-type': form },
          payload: pairs.join('&'),
          expect: exp,
        }
      : { label, method: wire, url: fapiUrl(at, method, pairs.join('&')), headers: {}, expect: exp };
  const unknownPairs = (): string[] =>
    rng.pick([
      ['foo=bar'],
      ['x%5B%5D=1', 'x%5B%5D=2'],
      ['x%5By%5D=1'],
      [`${enc(deepKey(8))}=1`],
      ['__proto__=x', 'constructor%5Bprototype%5D=y'],
      [`unknown_${rng.word(6)}=${rng.word(12)}`],
    ]);

  type Family = () => FuzzRequest;
  const families: Family[] = [];

  if (hasBody) {
    families.push(() => {
      const payload = rng.int(4) === 0 ? rng.bytes(64 + rng.int(512)) : rng.pick(MALFORMED_FORMS);
      return {
        label: 'malformed form body',
        method: wire,
        url: fapiUrl(resolved(), method),
        headers: { 'content-type': form },
        payload,
        expect,
      };
    });
    families.push(() => {
      const p = anyParam();
      const variants: { type: string; payload: string | Buffer }[] = [
        { type: 'text/plain', payload: `${p}=x` },
        { type: 'application/xml', payload: `<${p}>x</${p}>` },
        {
          type: 'multipart/form-data',
          payload: `--x\r\ncontent-disposition: form-data; name="${p}"\r\n\r\nx\r\n--x--`,
        },
        { type: 'application/json', payload: `{"${p}":` },
        { type: 'application/json', payload: '[1,2]' },
        { type: 'application/json', payload: '42' },
        { type: 'application/json', payload: '"x"' },
        { type: 'application/json', payload: 'null' },
        { type: 'application/json', payload: JSON.stringify({ [p]: 12345 }) },
        { type: 'application/json', payload: JSON.stringify({ [p]: { nested: ['x'] } }) },
        { type: 'application/json', payload: JSON.stringify({ [p]: true }) },
      ];
      // An image route takes any bytes as an upload, and judges them as an image.
      if (!spec.upload || rng.int(2) === 0)
        variants.push({ type: 'application/octet-stream', payload: rng.bytes(200) });
      const v = rng.pick(variants);
      return {
        label: `a ${v.type} body`,
        method: wire,
        url: fapiUrl(resolved(), method),
        headers: { 'content-type': v.type },
        payload: v.payload,
        expect,
      };
    });
    families.push(() => {
      const p = anyParam();
      const which = rng.int(3);
      if (which === 0) return withPairs(`1 MB in ${p}`, [`${enc(p)}=${enc(megabyte(rng))}`]);
      if (which === 1) return withPairs('a 1 MB parameter name', [`${'k'.repeat(MEGABYTE)}=1`]);
      return withPairs('brackets nested 500 deep', [`${enc(deepKey(500))}=1`]);
    });
  }
  families.push(() => {
    const p = anyParam();
    const bad = rng.pick(RAW_BAD_VALUES);
    return withPairs(`${bad.label} in ${p}`, [`${enc(p)}=${bad.raw}`]);
  });
  if (params.length) {
    families.push(() => {
      const single = params.filter(([, kind]) => kind !== 'list');
      const [name] = rng.pick(single.length ? single : params);
      if (invalidByKind.length && (rng.int(2) === 0 || !single.length))
        return withPairs('a value wrong for its kind', [kindInvalidPair()]);
      return withPairs(`${name} repeated`, [`${enc(name)}=${rng.word(6)}`, `${enc(name)}=${rng.word(6)}`]);
    });
  }
  if (ids.length) {
    families.push(() => {
      const bad = badPath();
      return withPairs(bad.label, hasBody && rng.int(2) === 0 ? unknownPairs() : [], bad.path);
    });
    families.push(() => {
      const bad = badPath();
      return withPairs(`unknown parameters and ${bad.label}`, unknownPairs(), bad.path);
    });
  } else if (invalidByKind.length) {
    families.push(() =>
      withPairs('unknown parameters and a wrong value', [...unknownPairs(), kindInvalidPair()]),
    );
  }
  if (spec.readOnly) {
    families.push(() => withPairs('unknown parameters alone', unknownPairs(), resolved(), 'tolerate'));
  }
  // The query: clerk-js's own parameters are well-formed; anything else is refused.
  families.push(() => {
    const bad = rng.pick([
      ...RAW_BAD_VALUES.map((b) => ({ label: `${b.label} in the query`, raw: `x=${b.raw}` })),
      { label: '1 MB in the query', raw: `x=${'q'.repeat(MEGABYTE)}` },
    ]);
    return {
      label: bad.label,
      method: wire,
      url: fapiUrl(resolved(), method, bad.raw),
      headers: hasBody ? { 'content-type': form } : ({} as Record<string, string>),
      payload: hasBody ? '' : undefined,
      expect,
    };
  });

  const out: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) out.push(families[i % families.length]!());
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Backend API cases

/** What a Backend API JSON parameter or query parameter holds: the kinds its routes declare. */
export type BapiKind = BapiFieldKind;
export type { BapiQueryKind };

export interface BapiSpec {
  params?: Record<string, BapiKind>;
  query?: Record<string, BapiQueryKind>;
  readOnly?: boolean;
  /** The body is a JSON array of objects with `params` (bulk invitations). */
  array?: boolean;
}

const BAPI_KIND_INVALID: Record<BapiKind, unknown[]> = {
  string: [123, true, [], {}, ['a']],
  id: [123, ['user_x'], 'user_2doesnotexist000000000000', '\u202euser_x', 'x'.repeat(300)],
  email: ['not-an-email', 123, 'a\u202e@example.com', 'a@b@example.com'],
  role: ['nonsense', 123, 'org:\u202eadmin', ['org:admin']],
  object: ['x', 42, [1], true],
  integer: ['1', 1.5, true, {}, 1e20, -1],
  number: ['60', true, -1, 1e20, {}],
  boolean: ['true', 1, 'yes', {}],
  strings: ['x', 42, [1], [['a']], {}, true],
};

const BAPI_QUERY_INVALID: Record<BapiQueryKind, string[]> = {
  page: ['abc', '-1', '1e309', 'NaN', '1.5', '99999999999999999999', 'Infinity', '0x10'],
  enum: ['nonsense', '-nonsense', '__proto__'],
  flag: ['maybe', 'yes', '2'],
  text: [],
};

export function bapiCases(
  route: { method: FuzzRequest['method']; path: string },
  spec: BapiSpec,
  world: World,
  rng: Rng,
  count: number,
): FuzzRequest[] {
  const { method, path } = route;
  const hasBody = method !== 'GET';
  const ids = pathParams(path);
  const params = Object.entries(spec.params ?? {});
  const query = Object.entries(spec.query ?? {});
  const invalidQuery = query.filter(([, kind]) => BAPI_QUERY_INVALID[kind].length > 0);
  const auth = { authorization: `Bearer ${BAPI_KEY_PLACEHOLDER}` };
  const json = 'application/json';
  const url = (at: string, extra = '') => `${BAPI}${at}${extra ? `?${extra}` : ''}`;
  const resolved = () => resolvePath(world, path);
  const wrap = (o: Record<string, unknown>) => JSON.stringify(spec.array ? [o] : o);
  const anyParam = () => (params.length ? rng.pick(params)[0] : rng.pick(['a', 'name', 'x']));
  const invalidPair = (): Record<string, unknown> => {
    const [name, kind] = rng.pick(params);
    return { [name]: rng.pick(BAPI_KIND_INVALID[kind]) };
  };
  const unknown = (): Record<string, unknown> =>
    rng.pick([
      { foo: 'bar' },
      { [`unknown_${rng.word(6)}`]: rng.word(10) },
      { nested: { a: [1, { b: null }] } },
    ]);
  const badPath = (): { label: string; path: string } => {
    const p = rng.pick(ids);
    const bad = rng.pick(badPathIds(rng, realId(world, p.segment, p.name)));
    return {
      label: `:${p.name} is ${bad.label}`,
      path: resolvePath(world, path, { index: p.index, raw: bad.raw }),
    };
  };
  const req = (
    label: string,
    opts: {
      at?: string;
      query?: string;
      type?: string;
      payload?: string | Buffer;
      expect?: Expectation;
    } = {},
  ): FuzzRequest => ({
    label,
    method,
    url: url(opts.at ?? resolved(), opts.query),
    headers: { ...auth, ...(opts.type ? { 'content-type': opts.type } : {}) },
    payload: opts.payload,
    expect: opts.expect ?? 'reject',
  });
  const withBody = (label: string, body: Record<string, unknown>, at?: string) =>
    hasBody
      ? req(label, { at, type: json, payload: wrap(body) })
      : req(label, { at, query: new URLSearchParams(body as Record<string, string>).toString() });

  type Family = () => FuzzRequest;
  const families: Family[] = [
    () => {
      const r = req('no or a wrong secret key', hasBody ? { type: json, payload: '{}' } : {});
      const key = rng.pick([null, 'sk_live_wrong', 'Bearer', '']);
      const headers: Record<string, string> = { ...r.headers };
      if (key === null) delete headers.authorization;
      else headers.authorization = `Bearer ${key}`;
      return { ...r, headers };
    },
    () => {
      const bad = rng.pick([
        ...RAW_BAD_VALUES.map((b) => ({ label: `${b.label} in the query`, raw: `x=${b.raw}` })),
        { label: '1 MB in the query', raw: `query=${'q'.repeat(MEGABYTE)}` },
      ]);
      return req(bad.label, { query: bad.raw, ...(hasBody ? { type: json, payload: '{}' } : {}) });
    },
  ];
  if (hasBody) {
    families.push(() => {
      const payload =
        rng.int(4) === 0
          ? rng.bytes(64 + rng.int(512))
          : rng.pick(['{"a":', "{'a':1}", '{a:1}', '[1,', '{"a":1}}', 'nul', '{"a":NaN}']);
      return req('malformed JSON', { type: json, payload });
    });
    families.push(() => {
      const payload = rng.pick(
        spec.array
          ? ['{}', '42', '"x"', 'null', 'true', '[1]', '["x"]']
          : ['[]', '[1]', '42', '"x"', 'null', 'true'],
      );
      return req(`a JSON ${payload} body`, { type: json, payload });
    });
    families.push(() => {
      const p = anyParam();
      const v = rng.pick([
        { type: 'text/plain', payload: `{"${p}":"x"}` },
        { type: 'application/x-www-form-urlencoded', payload: `${p}=x` },
        {
          type: 'multipart/form-data',
          payload: `--x\r\ncontent-disposition: form-data; name="${p}"\r\n\r\nx\r\n--x--`,
        },
        { type: 'application/xml', payload: `<${p}>x</${p}>` },
        { type: 'application/octet-stream', payload: rng.bytes(100) },
      ]);
      return req(`a ${v.type} body`, { type: v.type, payload: v.payload });
    });
    families.push(() => {
      const p = anyParam();
      if (rng.int(3) === 0)
        return req('JSON nested 5000 deep', { type: json, payload: `{"${p}":${deepJson(5000)}}` });
      return req(`1 MB in ${p}`, { type: json, payload: wrap({ [p]: megabyte(rng) }) });
    });
    families.push(() => {
      const p = anyParam();
      const v = rng.pick(['a\u0000b', '\ud800', 'x\udc00', '\u0000']);
      // JSON.stringify escapes lone surrogates (\ud800): the parser sees them as such.
      return req(`${JSON.stringify(v)} in ${p}`, { type: json, payload: wrap({ [p]: v }) });
    });
  }
  if (params.length) {
    families.push(() => withBody('a value of the wrong type or kind', invalidPair()));
    families.push(() => withBody('unknown parameters and a wrong value', { ...unknown(), ...invalidPair() }));
  }
  if (ids.length) {
    families.push(() => {
      const bad = badPath();
      return withBody(bad.label, rng.int(2) === 0 ? unknown() : {}, bad.path);
    });
  }
  if (invalidQuery.length) {
    families.push(() => {
      const [name, kind] = rng.pick(invalidQuery);
      const value = rng.pick(BAPI_QUERY_INVALID[kind]);
      return req(`${name}=${value}`, { query: `${encodeURIComponent(name)}=${encodeURIComponent(value)}` });
    });
  }
  if (spec.readOnly) {
    families.push(() =>
      req('unknown query parameters alone', { query: 'foo=bar&x%5B%5D=1&x%5B%5D=2', expect: 'tolerate' }),
    );
  }

  const out: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) out.push(families[i % families.length]!());
  return out;
}

/** Stands for the instance's secret key in generated requests; `send` puts the real one in. */
export const BAPI_KEY_PLACEHOLDER = 'sk_fuzz_placeholder';
