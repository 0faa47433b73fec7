import type { Database, Transaction } from '../db/database.ts';
import { seal, unseal } from '../crypto/sealing.ts';
import { sha256 } from '../crypto/secrets.ts';
import { sealApiKeySecret, unsealApiKeySecret } from '../api-keys/api-key-secret.ts';
import { sealSigningKey, unsealSigningKey } from '../jwt-templates/signing-key.ts';
import { totpSealingKey } from '../second-factors/totp.ts';
import { providerTokenContext, providerTokenSealingKey } from '../social/provider-tokens.ts';
import { storeSecretKeyHash } from '../store/instance-secrets.ts';
import {
  lockedApiKeySecrets,
  lockedJwtTemplateKeys,
  lockedProviderTokens,
  lockedTotpSecrets,
  updateApiKeySealedSecret,
  updateJwtTemplateSealedKey,
  updateProviderSealedTokens,
  updateTotpSealedSecret,
} from '../store/sealed-secrets.ts';

/** What a secret-key rotation re-sealed, per kind, and the values that did not open under the old key. */
export interface ResealReport {
  totpSecrets: number;
  apiKeySecrets: number;
  providerTokens: number;
  /** JWT templates' own signing keys. */
  jwtTemplateKeys: number;
  /** Values already unreadable under the old key (sealed under another one): left as they were. */
  unreadable: number;
}

/**
 * Re-seals, in one transaction, everything sealed under the instance secret key `oldKey` (TOTP secrets,
 * API key secrets, JWT templates' own signing keys, connected accounts' provider tokens) under `newKey`, and stores `newKey`'s hash. A
 * failure rolls everything back: the old key still opens all. Tokens held by sign-ins and sign-ups in
 * progress are not re-sealed (those attempts start again).
 */
export async function resealUnderNewSecretKey(
  db: Database,
  oldKey: string,
  newKey: string,
): Promise<ResealReport> {
  return db.transaction(async (tx) => {
    const report: ResealReport = {
      totpSecrets: 0,
      apiKeySecrets: 0,
      providerTokens: 0,
      jwtTemplateKeys: 0,
      unreadable: 0,
    };
    const reseal = (open: () => string, close: (plain: string) => string): string | null => {
      let plain: string;
      try {
        plain = open();
      } catch {
        report.unreadable++;
        return null;
      }
      return close(plain);
    };
    const [oldTotp, newTotp] = [totpSealingKey(oldKey), totpSealingKey(newKey)];
    for (const row of await lockedTotpSecrets(tx)) {
      const next = reseal(
        () => unseal(oldTotp, row.sealed_secret, row.id),
        (plain) => seal(newTotp, plain, row.id),
      );
      if (next === null) continue;
      await updateTotpSealedSecret(tx, row.id, next);
      report.totpSecrets++;
    }
    for (const row of await lockedApiKeySecrets(tx)) {
      const next = reseal(
        () => unsealApiKeySecret(oldKey, row.id, row.secret_sealed),
        (plain) => sealApiKeySecret(newKey, row.id, plain),
      );
      if (next === null) continue;
      await updateApiKeySealedSecret(tx, row.id, next);
      report.apiKeySecrets++;
    }
    for (const row of await lockedJwtTemplateKeys(tx)) {
      const next = reseal(
        () => unsealSigningKey(oldKey, row.id, row.sealed_signing_key),
        (plain) => sealSigningKey(newKey, row.id, plain),
      );
      if (next === null) continue;
      await updateJwtTemplateSealedKey(tx, row.id, next);
      report.jwtTemplateKeys++;
    }
    await resealProviderTokens(tx, oldKey, newKey, report, reseal);
    await storeSecretKeyHash(tx, sha256(newKey));
    return report;
  });
}

async function resealProviderTokens(
  tx: Transaction,
  oldKey: string,
  newKey: string,
  report: ResealReport,
  reseal: (open: () => string, close: (plain: string) => string) => string | null,
): Promise<void> {
  const [oldTokens, newTokens] = [providerTokenSealingKey(oldKey), providerTokenSealingKey(newKey)];
  const rows = await lockedProviderTokens(tx);
  for (const row of rows) {
    const next: Record<'access' | 'refresh', string | null> = { access: null, refresh: null };
    for (const kind of ['access', 'refresh'] as const) {
      const sealed = kind === 'access' ? row.access_token_sealed : row.refresh_token_sealed;
      if (!sealed) continue;
      const ctx = providerTokenContext(row.id, kind);
      next[kind] = reseal(
        () => unseal(oldTokens, sealed, ctx),
        (plain) => seal(newTokens, plain, ctx),
      );
      if (next[kind] !== null) report.providerTokens++;
    }
    // Unchanged (NULL) where there was nothing, or nothing readable.
    await updateProviderSealedTokens(tx, row.id, next.access, next.refresh);
  }
}
