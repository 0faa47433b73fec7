/**
 * Clerk's session-token customisation: a JSON object of claims whose string values may hold shortcodes
 * (`{{user.first_name}}`), rendered for each token minted. Pure: no database, no clock, so the same
 * validation runs when the setting is saved and the same rendering when a token is minted.
 *
 * What follows Clerk (its "Customize your session token" and "JWT templates" guides):
 * - static values (strings, numbers, booleans, null, arrays, objects) pass as they are, at any depth;
 * - a string that is one shortcode takes the value's own type (`{{user.public_metadata}}` an object,
 *   `{{user.has_image}}` a boolean, a missing value null);
 * - a string mixing text and shortcodes is interpolated (`"{{user.first_name}} {{user.last_name}}"`);
 * - `||` falls back to the next operand when one is null or missing, and operands may be quoted
 *   literals (`{{user.public_metadata.plan || 'free'}}`);
 * - metadata may be read at any depth (`{{user.public_metadata.profile.plan}}`);
 * - the claims Clerk sets itself cannot be overridden, and custom claims are bounded (1.2 KB).
 * Where Clerk's guides say nothing, our choice is documented in docs/instance-settings.md.
 */

/** Clerk's figure: the session cookie (4 KB) leaves about 1.2 KB for custom claims. */
export const CUSTOM_CLAIMS_MAX_BYTES = 1200;

/**
 * Claims every session token carries, set by the provider itself (Clerk's "default claims" of versions
 * 1 and 2 of the session token). `org_` is reserved as a whole: Clerk's organisation claims live there.
 */
export const RESERVED_CLAIMS: ReadonlySet<string> = new Set([
  'azp',
  'exp',
  'iat',
  'iss',
  'jti',
  'nbf',
  'sub',
  'sid',
  'sts',
  'fva',
  'act',
  'v',
  'pla',
  'fea',
  'o',
]);
const RESERVED_PREFIX = 'org_';

export function isReservedClaim(name: string): boolean {
  return RESERVED_CLAIMS.has(name) || name.startsWith(RESERVED_PREFIX);
}

/** What a template is rendered from: what minting already knows about the session's user. */
export interface ClaimsSubject {
  user: {
    id: string;
    external_id: string | null;
    first_name: string | null;
    last_name: string | null;
    username: string | null;
    image_url: string;
    has_image: boolean;
    public_metadata: Record<string, unknown>;
    unsafe_metadata: Record<string, unknown>;
    created_at: Date;
    updated_at: Date;
  };
  primaryEmail: { email_address: string; verified: boolean } | null;
  primaryPhone: { phone_number: string; verified: boolean } | null;
  /** The token's active organisation, or null in the personal workspace. */
  organization: {
    id: string;
    name: string;
    slug: string;
    image_url: string;
    has_image: boolean;
    public_metadata: Record<string, unknown>;
  } | null;
  membership: {
    role: string;
    permissions: readonly string[];
    public_metadata: Record<string, unknown>;
  } | null;
}

type Resolver = (s: ClaimsSubject) => unknown;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Every shortcode understood, and where its value comes from. */
export const SHORTCODES: Readonly<Record<string, Resolver>> = {
  'user.id': (s) => s.user.id,
  'user.external_id': (s) => s.user.external_id,
  'user.first_name': (s) => s.user.first_name,
  'user.last_name': (s) => s.user.last_name,
  'user.full_name': (s) => [s.user.first_name, s.user.last_name].filter(Boolean).join(' ') || null,
  'user.username': (s) => s.user.username,
  'user.primary_email_address': (s) => s.primaryEmail?.email_address ?? null,
  'user.email_verified': (s) => s.primaryEmail?.verified ?? false,
  'user.primary_phone_number': (s) => s.primaryPhone?.phone_number ?? null,
  'user.phone_number_verified': (s) => s.primaryPhone?.verified ?? false,
  'user.image_url': (s) => s.user.image_url,
  'user.profile_image_url': (s) => s.user.image_url,
  'user.has_image': (s) => s.user.has_image,
  'user.created_at': (s) => seconds(s.user.created_at),
  'user.updated_at': (s) => seconds(s.user.updated_at),
  'user.public_metadata': (s) => s.user.public_metadata,
  'user.unsafe_metadata': (s) => s.user.unsafe_metadata,
  'org.id': (s) => s.organization?.id ?? null,
  'org.name': (s) => s.organization?.name ?? null,
  'org.slug': (s) => s.organization?.slug ?? null,
  'org.image_url': (s) => s.organization?.image_url ?? null,
  'org.has_image': (s) => s.organization?.has_image ?? null,
  'org.public_metadata': (s) => s.organization?.public_metadata ?? null,
  'org.role': (s) => s.membership?.role ?? null,
  'org.permissions': (s) => (s.membership ? [...s.membership.permissions] : null),
  'org_membership.public_metadata': (s) => s.membership?.public_metadata ?? null,
};

/** Shortcodes whose value is an object that may be read further (`user.public_metadata.plan`). */
const METADATA = new Set([
  'user.public_metadata',
  'user.unsafe_metadata',
  'org.public_metadata',
  'org_membership.public_metadata',
]);

/** A template refused, with where (`claims.name`) and why. */
export class ClaimsTemplateError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'ClaimsTemplateError';
  }
}

type Operand = { kind: 'path'; code: string; rest: string[] } | { kind: 'literal'; value: unknown };
type Expression = Operand[];
/** A string value once parsed: literal text and expressions, alternating. */
type Part = string | Expression;

type Node =
  | { kind: 'static'; value: unknown }
  | { kind: 'string'; parts: Part[] }
  | { kind: 'array'; items: Node[] }
  | { kind: 'object'; entries: [string, Node][] };

/**
 * The two places a claims template is written, which Clerk renders slightly differently:
 * - `session_token`: the instance's session-token customisation (our setting, refused when unknown
 *   shortcodes are named, a null renders as nothing inside text, 1.2 KB);
 * - `jwt_template`: a JWT template of the Backend API, as Clerk's "JWT templates" guide describes it: an
 *   unknown shortcode renders null (`"invalid_shortcode": null`), a null inside text renders `null`
 *   ("null John"), `||` skips null and false and falls back to its last operand whatever its value, and
 *   only the registered claims are reserved (an `org_id` claim is a template's to write).
 */
export type ClaimsDialect = 'session_token' | 'jwt_template';

/** The JWT template's bound on its claims as written (ours: Clerk documents none). */
export const JWT_TEMPLATE_CLAIMS_MAX_BYTES = 8192;

/**
 * What a JWT template token sets itself (Clerk's default claims of custom JWTs), plus the session-bound
 * claims Clerk keeps out of them (`sid`) and the impersonation claim (`act`), which a consumer trusts as
 * the provider's.
 */
export const JWT_TEMPLATE_RESERVED_CLAIMS: ReadonlySet<string> = new Set([
  'azp',
  'exp',
  'iat',
  'iss',
  'jti',
  'nbf',
  'sub',
  'sid',
  'act',
]);

interface Dialect {
  reserved(name: string): boolean;
  maxBytes: number;
  /** An unknown shortcode: refused when the template is saved, or null when rendered. */
  unknownIsNull: boolean;
  /** What `||` skips. */
  falsy(value: unknown): boolean;
  /** When every operand is skipped: null, or the last operand's own value. */
  lastOperandWins: boolean;
  /** How a null reads inside text. */
  nullText: string;
}

const DIALECTS: Record<ClaimsDialect, Dialect> = {
  session_token: {
    reserved: isReservedClaim,
    maxBytes: CUSTOM_CLAIMS_MAX_BYTES,
    unknownIsNull: false,
    falsy: (v) => v === null || v === undefined,
    lastOperandWins: false,
    nullText: '',
  },
  jwt_template: {
    reserved: (name) => JWT_TEMPLATE_RESERVED_CLAIMS.has(name),
    maxBytes: JWT_TEMPLATE_CLAIMS_MAX_BYTES,
    unknownIsNull: true,
    falsy: (v) => v === null || v === undefined || v === false,
    lastOperandWins: true,
    nullText: 'null',
  },
};

/** A validated template, ready to render many times. */
export interface ClaimsTemplate {
  /** The template as given (what is stored and shown). */
  readonly source: Record<string, unknown>;
  /** No claims at all: minting skips loading the subject. */
  readonly empty: boolean;
  /** Some shortcode reads the active organisation or membership (one more query when minting). */
  readonly usesOrganization: boolean;
  render(subject: ClaimsSubject): Record<string, unknown>;
}

const SHORTCODE = /\{\{(.*?)\}\}/gs;

/** Validates `value` as a claims template; throws ClaimsTemplateError naming the claim and the reason. */
export function parseClaimsTemplate(
  value: unknown,
  path = 'claims',
  dialectName: ClaimsDialect = 'session_token',
): ClaimsTemplate {
  const dialect = DIALECTS[dialectName];
  if (!isPlainObject(value)) throw new ClaimsTemplateError(path, 'must be a JSON object of claims.');
  const size = Buffer.byteLength(JSON.stringify(value));
  if (size > dialect.maxBytes) {
    throw new ClaimsTemplateError(
      path,
      dialectName === 'session_token'
        ? `is ${size} bytes; custom claims are limited to ${dialect.maxBytes} bytes (as in Clerk).`
        : `is ${size} bytes; a template's claims are limited to ${dialect.maxBytes} bytes.`,
    );
  }
  const entries: [string, Node][] = Object.entries(value).map(([name, claim]) => {
    if (dialect.reserved(name)) {
      throw new ClaimsTemplateError(
        `${path}.${name}`,
        `"${name}" is a claim the provider sets itself; it cannot be customised.`,
      );
    }
    return [name, compile(claim, `${path}.${name}`, dialect)];
  });
  const root: Node = { kind: 'object', entries };
  return {
    source: value,
    empty: entries.length === 0,
    usesOrganization: codesOf(root).some((code) => code.startsWith('org')),
    render: (subject) => evaluate(root, subject, dialect) as Record<string, unknown>,
  };
}

/** Claims whose serialised size is over the bound (minting leaves them out rather than break the cookie). */
export function customClaimsTooLarge(claims: Record<string, unknown>): boolean {
  return Buffer.byteLength(JSON.stringify(claims)) > CUSTOM_CLAIMS_MAX_BYTES;
}

function compile(value: unknown, path: string, dialect: Dialect): Node {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return { kind: 'static', value };
    return { kind: 'string', parts: parseString(value, path, dialect) };
  }
  if (Array.isArray(value)) {
    return { kind: 'array', items: value.map((v, i) => compile(v, `${path}[${i}]`, dialect)) };
  }
  if (isPlainObject(value)) {
    return {
      kind: 'object',
      entries: Object.entries(value).map(([k, v]) => [k, compile(v, `${path}.${k}`, dialect)]),
    };
  }
  return { kind: 'static', value };
}

function parseString(text: string, path: string, dialect: Dialect): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of text.matchAll(SHORTCODE)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(parseExpression(match[1]!, path, dialect));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  for (const part of parts) {
    if (typeof part === 'string' && (part.includes('{{') || part.includes('}}'))) {
      throw new ClaimsTemplateError(path, `"${text}" has an unclosed or empty {{…}} shortcode.`);
    }
  }
  return parts;
}

function parseExpression(source: string, path: string, dialect: Dialect): Expression {
  const operands = source.split('||').map((s) => s.trim());
  return operands.map((operand): Operand => {
    if (!operand) throw new ClaimsTemplateError(path, `{{${source}}} has an empty operand.`);
    const quoted = /^'([^']*)'$|^"([^"]*)"$/.exec(operand);
    if (quoted) return { kind: 'literal', value: quoted[1] ?? quoted[2] };
    if (operand === 'null') return { kind: 'literal', value: null };
    if (operand === 'true' || operand === 'false') return { kind: 'literal', value: operand === 'true' };
    if (/^-?\d+(\.\d+)?$/.test(operand)) return { kind: 'literal', value: Number(operand) };
    // Own keys only: `{{constructor}}` or `{{toString}}` name no shortcode.
    if (Object.hasOwn(SHORTCODES, operand)) return { kind: 'path', code: operand, rest: [] };
    const metadata = [...METADATA].find((m) => operand.startsWith(`${m}.`));
    if (metadata) {
      const rest = operand.slice(metadata.length + 1).split('.');
      if (rest.every((key) => /^[\w-]+$/.test(key))) return { kind: 'path', code: metadata, rest };
    }
    // Resolved against nothing: no shortcode reads anything but the token's own user and organisation.
    if (dialect.unknownIsNull) return { kind: 'literal', value: null };
    throw new ClaimsTemplateError(
      path,
      `{{${operand}}} is not a supported shortcode (see docs/instance-settings.md for the list).`,
    );
  });
}

function codesOf(node: Node): string[] {
  switch (node.kind) {
    case 'static':
      return [];
    case 'array':
      return node.items.flatMap(codesOf);
    case 'object':
      return node.entries.flatMap(([, v]) => codesOf(v));
    case 'string':
      return node.parts.flatMap((part) =>
        typeof part === 'string' ? [] : part.flatMap((o) => (o.kind === 'path' ? [o.code] : [])),
      );
  }
}

function evaluate(node: Node, subject: ClaimsSubject, dialect: Dialect): unknown {
  switch (node.kind) {
    case 'static':
      return node.value;
    case 'array':
      return node.items.map((item) => evaluate(item, subject, dialect));
    case 'object':
      return Object.fromEntries(node.entries.map(([k, v]) => [k, evaluate(v, subject, dialect)]));
    case 'string': {
      // One shortcode alone keeps its value's type; mixed with text, everything becomes text.
      if (node.parts.length === 1 && typeof node.parts[0] !== 'string') {
        return resolve(node.parts[0]!, subject, dialect);
      }
      return node.parts
        .map((part) =>
          typeof part === 'string' ? part : asText(resolve(part, subject, dialect), dialect.nullText),
        )
        .join('');
    }
  }
}

function resolve(expression: Expression, subject: ClaimsSubject, dialect: Dialect): unknown {
  let value: unknown = null;
  for (const operand of expression) {
    value = operand.kind === 'literal' ? operand.value : lookup(operand, subject);
    if (!dialect.falsy(value)) return value;
  }
  return dialect.lastOperandWins ? (value ?? null) : null;
}

function lookup(operand: Extract<Operand, { kind: 'path' }>, subject: ClaimsSubject): unknown {
  let value = SHORTCODES[operand.code]!(subject);
  for (const key of operand.rest) {
    if (!isPlainObject(value) || !Object.hasOwn(value, key)) return null;
    value = value[key];
  }
  return value;
}

/**
 * A null inside a string renders as `nullText`: nothing for the session token, so "{{user.first_name}}
 * {{user.last_name}}" never says "null" there; `null` in a JWT template, as Clerk documents it.
 */
function asText(value: unknown, nullText: string): string {
  if (value === null || value === undefined) return nullText;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
