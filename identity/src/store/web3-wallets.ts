import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import type { VerificationState } from './rows.ts';

export interface Web3WalletRow {
  id: string;
  user_id: string;
  /** EIP-55 checksummed; compared without regard to case. */
  web3_wallet: string;
  /** `web3_<provider>_signature`: the wallet app it was verified with (null until prepared). */
  strategy: string | null;
  verified_at: Date | null;
  /** The pending signature verification of a wallet added from the profile; null once verified. */
  verification: VerificationState | null;
  created_at: Date;
  updated_at: Date;
}

export async function web3WalletsOfUser(db: Queryable, userId: string): Promise<Web3WalletRow[]> {
  return db.query<Web3WalletRow>('SELECT * FROM web3_wallets WHERE user_id = $1 ORDER BY created_at, id', [
    userId,
  ]);
}

/** One of the user's own wallets, locked for the request; another user's is as good as missing. */
export async function findOwnWeb3Wallet(
  db: Queryable,
  userId: string,
  id: string,
): Promise<Web3WalletRow | null> {
  const [row] = await db.query<Web3WalletRow>(
    'SELECT * FROM web3_wallets WHERE id = $1 AND user_id = $2 FOR UPDATE',
    [id, userId],
  );
  return row ?? null;
}

/** The user's verified wallet at `address` (any case), the one a web3 sign-in names. */
export async function findVerifiedWeb3WalletOfUser(
  db: Queryable,
  userId: string,
  address: string,
): Promise<Web3WalletRow | null> {
  const [row] = await db.query<Web3WalletRow>(
    `SELECT * FROM web3_wallets
     WHERE user_id = $1 AND lower(web3_wallet) = lower($2) AND verified_at IS NOT NULL`,
    [userId, address],
  );
  return row ?? null;
}

/** Whether an account owns the address: only a verified wallet is owned. */
export async function web3WalletTaken(db: Queryable, address: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM web3_wallets WHERE lower(web3_wallet) = lower($1) AND verified_at IS NOT NULL',
    [address],
  );
  return rows.length > 0;
}

export async function insertWeb3Wallet(
  db: Queryable,
  input: { userId: string; address: string; strategy: string | null; verifiedAt: Date | null; now: Date },
): Promise<Web3WalletRow> {
  const [row] = await db.query<Web3WalletRow>(
    `INSERT INTO web3_wallets (id, user_id, web3_wallet, strategy, verified_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
    [newId('idn'), input.userId, input.address, input.strategy, input.verifiedAt, input.now],
  );
  return row!;
}

export async function setWeb3WalletVerification(
  db: Queryable,
  id: string,
  strategy: string,
  verification: VerificationState,
  now: Date,
): Promise<Web3WalletRow> {
  const [row] = await db.query<Web3WalletRow>(
    `UPDATE web3_wallets SET strategy = $2, verification = $3, updated_at = $4 WHERE id = $1 RETURNING *`,
    [id, strategy, JSON.stringify(verification), now],
  );
  return row!;
}

export async function markWeb3WalletVerified(db: Queryable, id: string, now: Date): Promise<Web3WalletRow> {
  const [row] = await db.query<Web3WalletRow>(
    'UPDATE web3_wallets SET verified_at = $2, verification = NULL, updated_at = $2 WHERE id = $1 RETURNING *',
    [id, now],
  );
  return row!;
}

/** Once a wallet is verified by one account, unverified copies of it on other accounts go. */
export async function dropUnverifiedWeb3WalletCopies(
  db: Queryable,
  address: string,
  ownerId: string,
): Promise<void> {
  await db.query(
    'DELETE FROM web3_wallets WHERE lower(web3_wallet) = lower($1) AND user_id <> $2 AND verified_at IS NULL',
    [address, ownerId],
  );
}

/** Removes the wallet; the primary role passes to the user's oldest other verified wallet, if any. */
export async function deleteWeb3Wallet(db: Queryable, userId: string, id: string, now: Date): Promise<void> {
  await db.query('DELETE FROM web3_wallets WHERE id = $1 AND user_id = $2', [id, userId]);
  await db.query(
    `UPDATE users SET primary_web3_wallet_id = (
       SELECT w.id FROM web3_wallets w WHERE w.user_id = $1 AND w.verified_at IS NOT NULL
       ORDER BY w.created_at, w.id LIMIT 1), updated_at = $3
     WHERE id = $1 AND primary_web3_wallet_id = $2`,
    [userId, id, now],
  );
}

/** Makes the wallet the user's primary one when the user has none (the first verified wallet). */
export async function setPrimaryWeb3WalletIfNone(db: Queryable, userId: string, id: string): Promise<void> {
  await db.query(
    'UPDATE users SET primary_web3_wallet_id = $2 WHERE id = $1 AND primary_web3_wallet_id IS NULL',
    [userId, id],
  );
}

/** `PATCH /me {primary_web3_wallet_id}`: only one of the user's verified wallets; false when it is not. */
export async function setPrimaryWeb3Wallet(
  db: Queryable,
  userId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE users SET primary_web3_wallet_id = $2, updated_at = $3 WHERE id = $1
       AND EXISTS (SELECT 1 FROM web3_wallets w WHERE w.id = $2 AND w.user_id = $1 AND w.verified_at IS NOT NULL)
     RETURNING id`,
    [userId, id, now],
  );
  return rows.length > 0;
}
