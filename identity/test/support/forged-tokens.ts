import { exportJWK, exportSPKI, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';

/** What a forger may have: a genuine token to start from, and the facts a real attacker could learn. */
export interface ForgeryContext {
  /** A genuine session token of the instance, fresh (the control: it must pass). */
  genuine: string;
  /** The instance's signing key. Forgeries "with the instance key" show that a check other than the signature holds. */
  instanceKey: { kid: string; privateKey: CryptoKey; publicJwk: JWK };
  /** A genuine, unexpired token minted by a second, independent instance of the provider. */
  otherInstanceToken: string;
  /** Another real user and their session, and an organisation the genuine user is not in. */
  other: { userId: string; sessionId: string; organizationId: string };
}

export interface Forgery {
  name: string;
  /** Why @clerk/backend refuses it (its error message), so a forgery broken by mistake cannot pass for a test. */
  because: RegExp;
  forge(ctx: ForgeryContext): Promise<string>;
}

const ALG = /Invalid JWT algorithm/;
const SIGNATURE = /JWT signature is invalid/;
const KID = /Unable to find a signing key in JWKS/;
const EXPIRED = /JWT is expired|expiry date claim \(exp\)/;
const AZP = /Authorized party claim \(azp\)/;
const MALFORMED = /Invalid JWT form|Unexpected end of (data|JSON input)/;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

export function parts(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header, payload] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header!, 'base64url').toString()),
    payload: JSON.parse(Buffer.from(payload!, 'base64url').toString()),
  };
}

/** The genuine token with its claims changed and its original signature kept. */
function altered(change: (payload: Record<string, unknown>) => void): Forgery['forge'] {
  return async ({ genuine }) => {
    const [header, , signature] = genuine.split('.');
    const { payload } = parts(genuine);
    change(payload);
    return `${header}.${b64(payload)}.${signature}`;
  };
}

/** The genuine claims, changed, signed with the instance's own key and `header` on top of its usual one. */
function resigned(
  change: (payload: Record<string, unknown>) => void,
  header: Record<string, unknown> = {},
): Forgery['forge'] {
  return async ({ genuine, instanceKey }) => {
    const { payload } = parts(genuine);
    change(payload);
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: instanceKey.kid, typ: 'JWT', ...header })
      .sign(instanceKey.privateKey);
  };
}

/** A header of our choosing on the genuine claims, with no signature at all. */
function unsigned(header: (kid: string) => Record<string, unknown>, signature = ''): Forgery['forge'] {
  return async ({ genuine }) => {
    const { header: original } = parts(genuine);
    return `${b64(header(String(original.kid)))}.${genuine.split('.')[1]}.${signature}`;
  };
}

let attacker: Promise<{ privateKey: CryptoKey; publicJwk: JWK }> | null = null;
/** One RSA key pair of the attacker's own, shared by the forgeries (generating one takes a while). */
function attackerKey() {
  attacker ??= generateKeyPair('RS256', { extractable: true }).then(async ({ privateKey, publicKey }) => ({
    privateKey,
    publicJwk: await exportJWK(publicKey),
  }));
  return attacker;
}

/**
 * Every way a forger might try to pass a session token off as genuine. A verifier must refuse them all;
 * each test pairs it with the genuine token, which must pass, so a verifier that refuses everything fails.
 */
export const FORGERIES: Forgery[] = [
  // The signature algorithm.
  {
    name: 'alg "none" with an empty signature',
    because: KID,
    forge: unsigned(() => ({ alg: 'none', typ: 'JWT' })),
  },
  {
    name: 'alg "none" keeping the kid',
    because: ALG,
    forge: unsigned((kid) => ({ alg: 'none', typ: 'JWT', kid })),
  },
  { name: 'alg "NONE" (another spelling)', because: ALG, forge: unsigned((kid) => ({ alg: 'NONE', kid })) },
  {
    name: 'alg "none" keeping the original signature',
    because: ALG,
    forge: async (ctx) =>
      `${(await unsigned((kid) => ({ alg: 'none', kid }))(ctx)).slice(0, -1)}.${ctx.genuine.split('.')[2]}`,
  },
  {
    name: 'HS256 with the instance public key (PEM) as the HMAC secret (algorithm confusion)',
    because: ALG,
    forge: async ({ genuine, instanceKey }) => {
      const pem = await exportSPKI(
        (await importJWK(instanceKey.publicJwk, 'RS256', { extractable: true })) as CryptoKey,
      );
      return new SignJWT(parts(genuine).payload)
        .setProtectedHeader({ alg: 'HS256', kid: instanceKey.kid, typ: 'JWT' })
        .sign(new TextEncoder().encode(pem));
    },
  },
  {
    name: 'HS256 with the JWKS modulus as the HMAC secret',
    because: ALG,
    forge: async ({ genuine, instanceKey }) =>
      new SignJWT(parts(genuine).payload)
        .setProtectedHeader({ alg: 'HS256', kid: instanceKey.kid, typ: 'JWT' })
        .sign(Buffer.from(String(instanceKey.publicJwk.n), 'base64url')),
  },
  // The key.
  {
    name: 'signed with another RSA key under the instance kid',
    because: SIGNATURE,
    forge: async ({ genuine, instanceKey }) =>
      new SignJWT(parts(genuine).payload)
        .setProtectedHeader({ alg: 'RS256', kid: instanceKey.kid, typ: 'JWT' })
        .sign((await attackerKey()).privateKey),
  },
  {
    name: 'signed with another RSA key that the header embeds (jwk)',
    because: SIGNATURE,
    forge: async ({ genuine, instanceKey }) => {
      const key = await attackerKey();
      return new SignJWT(parts(genuine).payload)
        .setProtectedHeader({ alg: 'RS256', kid: instanceKey.kid, typ: 'JWT', jwk: key.publicJwk })
        .sign(key.privateKey);
    },
  },
  {
    name: 'signed with another RSA key named by a jku URL',
    because: SIGNATURE,
    forge: async ({ genuine, instanceKey }) =>
      new SignJWT(parts(genuine).payload)
        .setProtectedHeader({
          alg: 'RS256',
          kid: instanceKey.kid,
          typ: 'JWT',
          jku: 'https://evil.test/.well-known/jwks.json',
        })
        .sign((await attackerKey()).privateKey),
  },
  {
    name: 'the instance key under an unknown kid',
    because: KID,
    forge: resigned(() => {}, { kid: 'ins_2zzzzzzzzzzzzzzzzzzzzzzzzzz' }),
  },
  { name: 'the instance key without a kid', because: KID, forge: resigned(() => {}, { kid: undefined }) },
  {
    name: 'a token of a second, independent instance',
    because: KID,
    forge: async (ctx) => ctx.otherInstanceToken,
  },
  // Time.
  {
    name: 'expired ten minutes ago',
    because: EXPIRED,
    forge: resigned((p) => Object.assign(p, { iat: now() - 700, nbf: now() - 710, exp: now() - 600 })),
  },
  {
    name: 'expired 30 s ago (beyond the clock skew)',
    because: EXPIRED,
    forge: resigned((p) => Object.assign(p, { exp: now() - 30 })),
  },
  { name: 'without an expiry', because: EXPIRED, forge: resigned((p) => delete p.exp) },
  {
    name: 'not valid before ten minutes from now (nbf)',
    because: /not before date claim \(nbf\)/,
    forge: resigned((p) => Object.assign(p, { nbf: now() + 600 })),
  },
  {
    name: 'issued ten minutes in the future (iat)',
    because: /issued at date claim \(iat\) is in the future/,
    forge: resigned((p) => Object.assign(p, { iat: now() + 600, nbf: now() - 10 })),
  },
  // The authorized party (the page origin the token was minted for).
  {
    name: 'azp of another origin',
    because: AZP,
    forge: resigned((p) => Object.assign(p, { azp: 'https://evil.test' })),
  },
  {
    name: 'azp of a look-alike origin',
    because: AZP,
    forge: resigned((p) => Object.assign(p, { azp: `${String(p.azp)}.evil.test` })),
  },
  {
    name: 'azp of the same host on another port',
    because: AZP,
    forge: resigned((p) => {
      const azp = new URL(String(p.azp));
      azp.port = String(Number(azp.port || 80) + 1);
      p.azp = azp.origin;
    }),
  },
  { name: 'typ other than JWT', because: /Invalid JWT type/, forge: resigned(() => {}, { typ: 'at+jwt' }) },
  // Claims changed under the original signature.
  {
    name: 'sub changed to another user',
    because: SIGNATURE,
    forge: (ctx) => altered((p) => (p.sub = ctx.other.userId))(ctx),
  },
  {
    name: 'sid changed to another session',
    because: SIGNATURE,
    forge: (ctx) => altered((p) => (p.sid = ctx.other.sessionId))(ctx),
  },
  {
    name: 'org_id changed to an organisation of another user',
    because: SIGNATURE,
    forge: (ctx) => altered((p) => (p.org_id = ctx.other.organizationId))(ctx),
  },
  {
    name: 'org_role raised to org:vciso',
    because: SIGNATURE,
    forge: altered((p) => (p.org_role = 'org:vciso')),
  },
  {
    name: 'org_permissions widened',
    because: SIGNATURE,
    forge: altered((p) => (p.org_permissions = ['org:sys_memberships:manage', 'org:sys_profile:delete'])),
  },
  {
    name: 'exp extended by a day',
    because: SIGNATURE,
    forge: altered((p) => (p.exp = Number(p.exp) + 86400)),
  },
  { name: 'azp changed', because: AZP, forge: altered((p) => (p.azp = 'https://evil.test')) },
  {
    name: 'an impersonation (act) claim added',
    because: SIGNATURE,
    forge: (ctx) => altered((p) => (p.act = { sub: ctx.other.userId }))(ctx),
  },
  {
    name: 'the header changed (kid dropped) under the original signature',
    because: KID,
    forge: async ({ genuine }) => {
      const { header } = parts(genuine);
      delete header.kid;
      return `${b64(header)}.${genuine.split('.').slice(1).join('.')}`;
    },
  },
  // Broken tokens.
  {
    name: 'the signature truncated',
    // Refused as malformed, or, when the characters left still decode (about one token in sixteen, by the
    // bits of its last character), as a wrong signature: either way refused (seen failing one CI run).
    because: new RegExp(`${MALFORMED.source}|${SIGNATURE.source}`),
    forge: async ({ genuine }) => genuine.slice(0, -12),
  },
  {
    name: 'one signature bit flipped',
    because: SIGNATURE,
    forge: async ({ genuine }) => {
      const [h, p, s] = genuine.split('.');
      const sig = Buffer.from(s!, 'base64url');
      sig[sig.length - 1]! ^= 1;
      return `${h}.${p}.${sig.toString('base64url')}`;
    },
  },
  {
    name: 'header and payload without a signature part',
    because: MALFORMED,
    forge: async ({ genuine }) => genuine.split('.').slice(0, 2).join('.'),
  },
  { name: 'garbage', because: MALFORMED, forge: async () => 'not.a.jwt' },
  { name: 'empty segments', because: MALFORMED, forge: async () => '..' },
  {
    name: 'a token with a fourth part appended',
    because: MALFORMED,
    forge: async ({ genuine }) => `${genuine}.AAAA`,
  },
];
