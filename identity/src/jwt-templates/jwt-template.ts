import { errors } from '../errors.ts';
import type { IdentityDeps } from '../deps.ts';
import {
  ClaimsTemplateError,
  JWT_TEMPLATE_RESERVED_CLAIMS,
  parseClaimsTemplate,
} from '../instance/settings/claims-template.ts';
import { claimsSubjectOf } from '../instance/settings/custom-claims.ts';
import type { JwtTemplateFields, JwtTemplateRow } from '../store/jwt-templates.ts';
import type { TokenSubject } from '../store/token-subjects.ts';
import {
  INSTANCE_ALGORITHM,
  isSigningAlgorithm,
  newJti,
  sealSigningKey,
  signingKeyOf,
  signTemplateToken,
  SIGNING_ALGORITHMS,
  unsealSigningKey,
} from './signing-key.ts';

/** Clerk's bounds (its Backend API reference): a lifetime of 30 s to ten years, a skew of 0 to 300 s. */
export const LIFETIME_SECONDS = { min: 30, max: 315_360_000, default: 60 } as const;
export const CLOCK_SKEW_SECONDS = { min: 0, max: 300, default: 5 } as const;
/** Ours: Clerk documents no bound on a template's name or on how many an instance keeps. */
export const NAME_MAX_LENGTH = 256;
export const MAX_JWT_TEMPLATES = 100;

/** A template's fields as the Backend API's body gives them (absent: undefined). */
export interface JwtTemplateInput {
  name?: string;
  claims?: Record<string, unknown>;
  lifetime?: number;
  allowed_clock_skew?: number;
  custom_signing_key?: boolean;
  signing_algorithm?: string;
  signing_key?: string;
}

/**
 * The fields to store for a new template (`current` null) or a changed one: what the body leaves out
 * keeps its current value (or Clerk's default); Clerk's 422 naming the first field at fault otherwise.
 * A custom key is checked against its algorithm and sealed for the template's id; turning
 * `custom_signing_key` off drops it, and changing the algorithm of a custom key needs the key again.
 */
export function jwtTemplateFields(
  instanceSecretKey: string,
  templateId: string,
  input: JwtTemplateInput,
  current: JwtTemplateRow | null,
): JwtTemplateFields {
  const name = input.name ?? current?.name;
  if (name === undefined || name.trim() === '') throw errors.paramMissing('name');
  if (name.length > NAME_MAX_LENGTH) throw errors.paramMaxLength('name', NAME_MAX_LENGTH);
  if (!/^[^\s/?#%\\]+$/.test(name)) {
    // The name is a path segment of getToken's URL.
    throw errors.paramValueInvalid(
      'name',
      'The name must not contain spaces, slashes, ?, #, % or backslashes.',
    );
  }
  const claims = input.claims ?? current?.claims;
  if (claims === undefined) throw errors.paramMissing('claims');
  try {
    parseClaimsTemplate(claims, 'claims', 'jwt_template');
  } catch (err) {
    if (err instanceof ClaimsTemplateError) throw errors.paramValueInvalid('claims', err.message);
    throw err;
  }
  const lifetime = input.lifetime ?? current?.lifetime ?? LIFETIME_SECONDS.default;
  if (lifetime < LIFETIME_SECONDS.min || lifetime > LIFETIME_SECONDS.max) {
    throw errors.paramValueInvalid(
      'lifetime',
      `lifetime must be between ${LIFETIME_SECONDS.min} and ${LIFETIME_SECONDS.max} seconds.`,
    );
  }
  const skew = input.allowed_clock_skew ?? current?.allowed_clock_skew ?? CLOCK_SKEW_SECONDS.default;
  if (skew < CLOCK_SKEW_SECONDS.min || skew > CLOCK_SKEW_SECONDS.max) {
    throw errors.paramValueInvalid(
      'allowed_clock_skew',
      `allowed_clock_skew must be between ${CLOCK_SKEW_SECONDS.min} and ${CLOCK_SKEW_SECONDS.max} seconds.`,
    );
  }
  const custom = input.custom_signing_key ?? (current ? current.sealed_signing_key !== null : false);
  const common = { name, claims, lifetime, allowed_clock_skew: skew };
  if (!custom) return { ...common, signing_algorithm: INSTANCE_ALGORITHM, sealed_signing_key: null };

  const algorithm =
    input.signing_algorithm ?? (current?.sealed_signing_key ? current.signing_algorithm : undefined);
  if (algorithm === undefined) throw errors.paramMissing('signing_algorithm');
  if (!isSigningAlgorithm(algorithm)) {
    throw errors.paramValueInvalid(
      'signing_algorithm',
      `signing_algorithm must be one of ${SIGNING_ALGORITHMS.join(', ')}.`,
    );
  }
  if (input.signing_key === undefined) {
    // Keeping the stored key is possible only under the algorithm it was checked for.
    if (current?.sealed_signing_key && current.signing_algorithm === algorithm) {
      return { ...common, signing_algorithm: algorithm, sealed_signing_key: current.sealed_signing_key };
    }
    throw errors.paramMissing('signing_key');
  }
  signingKeyOf(algorithm, input.signing_key);
  return {
    ...common,
    signing_algorithm: algorithm,
    sealed_signing_key: sealSigningKey(instanceSecretKey, templateId, input.signing_key),
  };
}

/** Clerk's JSON of a template (`@clerk/backend`'s JwtTemplate.fromJSON): never the key itself. */
export function jwtTemplateJSON(row: JwtTemplateRow) {
  return {
    object: 'jwt_template' as const,
    id: row.id,
    name: row.name,
    claims: row.claims,
    lifetime: row.lifetime,
    allowed_clock_skew: row.allowed_clock_skew,
    custom_signing_key: row.sealed_signing_key !== null,
    signing_algorithm: row.signing_algorithm,
    created_at: row.created_at.getTime(),
    updated_at: row.updated_at.getTime(),
  };
}

/**
 * The token of a template for a signed-in session: the template's claims rendered against the session's
 * own user and active organisation (the only data a shortcode can reach), then Clerk's default claims of
 * custom JWTs, set last so that nothing of the template stands in for them (the template refuses their
 * names anyway). No `sid`: Clerk keeps session-bound claims out of custom JWTs.
 */
export async function mintTemplateToken(
  deps: Pick<IdentityDeps, 'avatarUrl' | 'fapiBase' | 'signingKey' | 'tokens' | 'keys'>,
  template: JwtTemplateRow,
  subject: Pick<TokenSubject, 'user' | 'organization'>,
  opts: { azp: string | null; now: Date; lifetimeSeconds?: number },
): Promise<string> {
  // Saving refuses the reserved names; a row written otherwise loses them here rather than fail.
  const own = Object.entries(template.claims).filter(([name]) => !JWT_TEMPLATE_RESERVED_CLAIMS.has(name));
  const rendered = parseClaimsTemplate(Object.fromEntries(own), 'claims', 'jwt_template').render(
    claimsSubjectOf(deps, subject.user, subject.organization),
  );
  const iat = Math.floor(opts.now.getTime() / 1000);
  const claims: Record<string, unknown> = { ...rendered };
  if (opts.azp) claims.azp = opts.azp;
  claims.exp = iat + (opts.lifetimeSeconds ?? template.lifetime);
  claims.iat = iat;
  claims.iss = deps.tokens.issuer;
  claims.jti = newJti();
  claims.nbf = iat - template.allowed_clock_skew;
  claims.sub = subject.user.id;
  if (template.sealed_signing_key === null) return signTemplateToken(claims, { instance: deps.signingKey });
  const algorithm = template.signing_algorithm;
  if (!isSigningAlgorithm(algorithm))
    throw new Error(`JWT template ${template.id} has an unknown algorithm.`);
  const key = signingKeyOf(
    algorithm,
    unsealSigningKey(deps.keys.secretKey, template.id, template.sealed_signing_key),
  );
  return signTemplateToken(claims, { algorithm, key });
}
