import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A WebAuthn authenticator in software, for the integration tests: an ES256 key pair, attestation
 * `none`, and the credential serialised exactly as clerk-js sends it (utils/passkeys.ts: base64url
 * buffers, no `clientExtensionResults`). Each ceremony can be bent to play an attacker: another origin
 * or RP id, no user verification, a stale signature counter, another credential id.
 */

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

/** The few CBOR major types an attestation object needs (RFC 8949). */
export function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/** What a ceremony may bend. */
export interface CeremonyOptions {
  /** The page's origin (clientDataJSON.origin). */
  origin?: string;
  /** The RP id hashed into authenticatorData (default: the options' RP id). */
  rpId?: string;
  /** User verified (PIN or biometric): on unless false. */
  userVerified?: boolean;
  /** The signature counter sent (default: one more than last time). */
  counter?: number;
  /** The challenge signed (default: the options'). */
  challenge?: string;
  /** clientDataJSON.type (default: webauthn.create / webauthn.get). */
  type?: string;
}

interface CreationOptionsJSON {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string };
}
interface RequestOptionsJSON {
  challenge: string;
  rpId: string;
  allowCredentials?: { id: string }[];
}

export class SoftwareAuthenticator {
  readonly credentialId: Buffer;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter as last sent. */
  counter = 0;
  /** The user handle (`user.id` of the creation options), kept from registration. */
  userHandle: string | null = null;
  rpId: string | null = null;

  constructor(readonly origin = 'http://localhost:3000') {
    this.credentialId = randomBytes(32);
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The COSE_Key of the public key (EC2, ES256, P-256). */
  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** `navigator.credentials.create()` on the nonce of POST /me/passkeys: clerk-js's `public_key_credential`. */
  create(nonce: string, bend: CeremonyOptions = {}): string {
    const options = JSON.parse(nonce) as CreationOptionsJSON;
    this.userHandle = options.user.id;
    this.rpId = options.rp.id;
    const counter = bend.counter ?? this.counter;
    this.counter = counter;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const flags = FLAG_UP | FLAG_AT | (bend.userVerified === false ? 0 : FLAG_UV);
    const authData = this.authenticatorData(bend.rpId ?? options.rp.id, flags, counter, attested);
    const clientDataJSON = this.clientData(
      bend.type ?? 'webauthn.create',
      bend.challenge ?? options.challenge,
      bend.origin ?? this.origin,
    );
    return JSON.stringify({
      type: 'public-key',
      id: this.id,
      rawId: this.id,
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
    });
  }

  /** `navigator.credentials.get()` on a sign-in's nonce: clerk-js's `public_key_credential`. */
  get(nonce: string, bend: CeremonyOptions = {}): string {
    const options = JSON.parse(nonce) as RequestOptionsJSON;
    const counter = bend.counter ?? this.counter + 1;
    this.counter = Math.max(this.counter, counter);
    const flags = FLAG_UP | (bend.userVerified === false ? 0 : FLAG_UV);
    const authData = this.authenticatorData(bend.rpId ?? options.rpId, flags, counter);
    const clientDataJSON = this.clientData(
      bend.type ?? 'webauthn.get',
      bend.challenge ?? options.challenge,
      bend.origin ?? this.origin,
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return JSON.stringify({
      type: 'public-key',
      id: this.id,
      rawId: this.id,
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
    });
  }
}
