import { sign } from 'node:crypto';
import { promisify } from 'node:util';
import type { FactorVerificationAge } from '../reverification/factor-age.ts';
import type { SessionRow, UserRow } from '../store/rows.ts';
import type { SigningKey } from './signing-keys.ts';

/** With a callback, node:crypto signs on the libuv threadpool: the event loop goes on meanwhile. */
const signOffLoop = promisify(sign);

/** What a session token may say about its user (a claims template reads from it too). */
export interface TokenUser extends Pick<
  UserRow,
  | 'id'
  | 'external_id'
  | 'first_name'
  | 'last_name'
  | 'username'
  | 'image_id'
  | 'public_metadata'
  | 'unsafe_metadata'
  | 'created_at'
  | 'updated_at'
> {
  primary_email_address: { email_address: string; verified: boolean } | null;
  primary_phone_number: { phone_number: string; verified: boolean } | null;
}

/**
 * The token's active organisation, present only while the user is a member: a removed member's next token
 * carries no organisation.
 */
export interface TokenOrganization {
  id: string;
  name: string;
  slug: string;
  /** Null without a logo. */
  image_type: string | null;
  public_metadata: Record<string, unknown>;
  updated_at: Date;
  membership: { role: string; permissions: readonly string[]; public_metadata: Record<string, unknown> };
}

/**
 * A plan the payer is on now (a subscription item active or past due), as read with the token's other
 * inputs: its slug and its features' slugs, from what was bought.
 */
export interface TokenPlan {
  slug: string;
  features: string[];
}

/** The plans of the token's user (paying for themselves) and of its active organisation. */
export interface TokenBilling {
  user: TokenPlan[];
  organization: TokenPlan[];
}

/**
 * Clerk's `pla` and `fea` claims: `u:<slug>` for the user's plans, `o:<slug>` for the active
 * organisation's, comma-joined (clerk-js Session.ts and @clerk/backend authObjects.ts read them with
 * `splitByScope`, whatever the token's `v`). A feature on both gets both scopes (`uo:<slug>`, as Clerk
 * writes it). Null when there is nothing to say.
 */
export function billingClaims(billing: TokenBilling): { pla: string; fea: string } | null {
  const scoped = (user: string[], org: string[]) => {
    const seen = new Map<string, string>();
    for (const slug of user) seen.set(slug, 'u');
    for (const slug of org) seen.set(slug, seen.get(slug)?.startsWith('u') ? 'uo' : 'o');
    return [...seen.entries()].map(([slug, scope]) => `${scope}:${slug}`).join(',');
  };
  const userPlans = billing.user.map((p) => p.slug);
  const orgPlans = billing.organization.map((p) => p.slug);
  if (!userPlans.length && !orgPlans.length) return null;
  const pla = [...userPlans.map((s) => `u:${s}`), ...orgPlans.map((s) => `o:${s}`)].join(',');
  const fea = scoped(
    billing.user.flatMap((p) => p.features),
    billing.organization.flatMap((p) => p.features),
  );
  return { pla, fea };
}

/** Everything one session token is made from. */
export interface SessionTokenInput {
  session: Pick<SessionRow, 'id' | 'user_id' | 'status' | 'actor'>;
  user: TokenUser;
  organization: TokenOrganization | null;
  /** `fva`: minutes since each factor group was proven (see reverification/factor-age.ts). */
  fva: FactorVerificationAge;
  /** The page origin that asked for the token, so servers can pin `authorizedParties`; null without one. */
  azp: string | null;
  now: Date;
  /** The instance's session-token customisation, rendered (instance/settings/custom-claims.ts). */
  customClaims?: Record<string, unknown> | null;
  /** The payers' current plans; null or absent when the instance does not bill (no `pla`, `fea`). */
  billing?: TokenBilling | null;
}

export interface TokenContext {
  signingKey: SigningKey;
  issuer: string;
  ttlSeconds: number;
}

/**
 * The claims clerk-js 5.90.0 and @clerk/backend 2.10.1 read, version 1 organisation claims (`org_id`,
 * `org_slug`, `org_role`, `org_permissions`: both parse them when the token carries no `v` claim, and they
 * carry full permission keys without a feature table). In the order jose's SignJWT wrote them.
 */
export function sessionTokenClaims(ctx: TokenContext, input: SessionTokenInput): Record<string, unknown> {
  const { session, organization: org } = input;
  const iat = Math.floor(input.now.getTime() / 1000);
  const claims: Record<string, unknown> = {
    // First, so the claims set below always win (the template refuses their names anyway).
    ...input.customClaims,
    sid: session.id,
    sts: session.status === 'pending' ? 'pending' : 'active',
    fva: input.fva,
  };
  if (org) {
    claims.org_id = org.id;
    claims.org_slug = org.slug;
    claims.org_role = org.membership.role;
    claims.org_permissions = org.membership.permissions;
  }
  const plans = input.billing ? billingClaims(input.billing) : null;
  if (plans) {
    claims.pla = plans.pla;
    if (plans.fea) claims.fea = plans.fea;
  }
  if (input.azp) claims.azp = input.azp;
  if (session.actor) claims.act = session.actor;
  claims.sub = session.user_id;
  claims.iss = ctx.issuer;
  claims.iat = iat;
  claims.nbf = iat - 10;
  claims.exp = iat + ctx.ttlSeconds;
  return claims;
}

/**
 * Mints a session token: RS256 over the key's fixed header (encoded once, see signing-keys.ts) and the
 * claims, signed off the event loop. The same bytes as jose's SignJWT would give (PKCS#1 v1.5 signatures
 * are deterministic), without its per-token checks of a key and header that never change.
 */
export async function mintSessionToken(ctx: TokenContext, input: SessionTokenInput): Promise<string> {
  const payload = Buffer.from(JSON.stringify(sessionTokenClaims(ctx, input))).toString('base64url');
  const signingInput = `${ctx.signingKey.encodedHeader}.${payload}`;
  const signature = await signOffLoop('sha256', Buffer.from(signingInput), ctx.signingKey.signer);
  return `${signingInput}.${signature.toString('base64url')}`;
}
