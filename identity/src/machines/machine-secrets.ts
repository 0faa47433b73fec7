import { constantTimeEqual, hashCode } from '../crypto/secrets.ts';
import { seal, sealingKey, unseal } from '../crypto/sealing.ts';
import { randomBase62 } from '../ids.ts';

/**
 * A machine's secret key is `ak_` and 48 base62 characters, as Clerk's are (@clerk/backend sends it as
 * the Bearer of its `m2m` calls); an M2M token is `mt_` and 48 (@clerk/backend 2.10.1 tells it from other
 * tokens by that prefix, tokens/machine.ts). 285 bits of randomness each.
 */
export const MACHINE_SECRET_SHAPE = /^ak_[0-9A-Za-z]{48}$/;
export const M2M_TOKEN_SHAPE = /^mt_[0-9A-Za-z]{48}$/;

export const newMachineSecret = (): string => `ak_${randomBase62(48)}`;
export const newM2mToken = (): string => `mt_${randomBase62(48)}`;

/** Keyed hashes under the instance's code pepper: a copied table holds no usable key or token. */
export const machineSecretHash = (pepper: string, secret: string): string =>
  hashCode(pepper, 'machine_secret_key', secret);
export const m2mTokenHash = (pepper: string, token: string): string => hashCode(pepper, 'm2m_token', token);

/** After the lookup by hash, the comparison that takes the same time whatever the bytes. */
export const hashMatches = (computed: string, stored: string): boolean => constantTimeEqual(computed, stored);

const keys = new Map<string, Buffer>();
function keyFor(instanceSecretKey: string): Buffer {
  let key = keys.get(instanceSecretKey);
  if (!key) keys.set(instanceSecretKey, (key = sealingKey(instanceSecretKey, 'machine_secret_key')));
  return key;
}

/** Sealed under the instance secret key, bound to the machine's id. */
export const sealMachineSecret = (instanceSecretKey: string, machineId: string, secret: string): string =>
  seal(keyFor(instanceSecretKey), secret, machineId);

export const unsealMachineSecret = (instanceSecretKey: string, machineId: string, sealed: string): string =>
  unseal(keyFor(instanceSecretKey), sealed, machineId);
