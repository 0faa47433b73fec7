import { hashPassword, isPasswordHashingBusy, needsRehash, verifyPassword } from '../crypto/passwords.ts';
import { sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import { sessionOfClientToken, userIdOfClientRow } from '../store/clients.ts';
import type { IdentityDeps } from '../deps.ts';
import { checkNewPassword } from '../passwords/check-password.ts';
import type { SessionRow, UserRow } from '../store/rows.ts';
import { findUserById, lockedForSeconds } from '../store/users.ts';
import type { FapiRequestInfo } from './context.ts';
import { field, rawField } from './form.ts';
import { attemptWaitSeconds } from '../abuse/attempt-gate.ts';
import { WorkOutsideTransaction } from './work-outside-transaction.ts';
import type { Prepared } from './prepared-work.ts';

/**
 * Whether `password` matches `passwordHash` (null: no such account, answered false after the dummy hash),
 * as the check made outside the transaction found it. A check of another hash or password (the password
 * changed since it was read, or the route skipped it) is asked for: the request runs again after it
 * (see work-outside-transaction.ts), so argon2 never runs while a transaction holds a connection.
 */
export async function checkPassword(
  prepared: Prepared,
  passwordHash: string | null,
  password: string,
): Promise<boolean> {
  const check = prepared.passwordCheck;
  if (check && check.passwordHash === passwordHash && check.password === password) return check.ok;
  throw new WorkOutsideTransaction(async () => ({
    passwordCheck: { passwordHash, password, ok: await verifyPassword(passwordHash, password) },
  }));
}

/** The hash of a new password made outside the transaction, asked for if there is none of this password. */
export async function hashNewPassword(prepared: Prepared, password: string): Promise<string> {
  const made = prepared.newPassword;
  if (made && made.password === password) return made.hash;
  throw new WorkOutsideTransaction(async () => ({
    newPassword: { password, hash: await hashPassword(password) },
  }));
}

/**
 * A new password checked against the policy and hashed: the hash made outside the transaction when it is
 * of this password (it passed the same policy then), else the policy checked now and the hash asked for.
 */
export async function acceptNewPassword(
  prepared: Prepared,
  password: string,
  deps: IdentityDeps,
  paramName: string,
): Promise<string> {
  const made = prepared.newPassword;
  if (made && made.password === password) return made.hash;
  checkNewPassword(password, deps.config.passwordPolicy, paramName);
  return hashNewPassword(prepared, password);
}

/**
 * Before the transaction: the user's password checked, unless there is none to check or the account is
 * locked or waiting out a delay (guesses then cost no argon2; a trusted browser's is asked for then).
 */
export async function precheckPassword(
  deps: IdentityDeps,
  user: UserRow | null,
  password: string,
): Promise<Prepared> {
  const now = deps.clock();
  if (!user?.password_hash || lockedForSeconds(user, now) > 0) return {};
  if (attemptWaitSeconds({ deps, now }, user) > 0) return {};
  const ok = await verifyPassword(user.password_hash, password);
  const passwordCheck = { passwordHash: user.password_hash, password, ok };
  // A right password against an imported digest: its argon2id replacement, made here too.
  if (ok && needsRehash(user.password_hash)) {
    return { passwordCheck, newPassword: { password, hash: await hashPassword(password) } };
  }
  return { passwordCheck };
}

/** Before the transaction: a new password hashed if it passes the policy (a refused one costs no hash). */
export async function prehashNewPassword(
  deps: IdentityDeps,
  password: string | undefined,
  paramName: string,
): Promise<Prepared> {
  if (password === undefined) return {};
  try {
    checkNewPassword(password, deps.config.passwordPolicy, paramName);
  } catch {
    return {};
  }
  return { newPassword: { password, hash: await hashPassword(password) } };
}

/**
 * The user of a sign-in or a session that belongs to this browser's client, read without locks (a session
 * id of null: the client's last active session); null when there is none. The handler checks it all again
 * in its transaction.
 */
export async function userOfClientRow(
  db: Queryable,
  table: 'sign_ins' | 'sessions',
  id: string | null | undefined,
  clientToken: string | null,
): Promise<UserRow | null> {
  if (!clientToken || (!id && table !== 'sessions')) return null;
  const userId = await userIdOfClientRow(db, table, id ?? null, sha256(clientToken));
  return userId ? findUserById(db, userId) : null;
}

/** A session of this browser's client (null id: its last active one), read without locks. */
export async function sessionOfClient(
  db: Queryable,
  id: string | null,
  clientToken: string | null,
): Promise<SessionRow | null> {
  if (!clientToken) return null;
  return sessionOfClientToken(db, id, sha256(clientToken));
}

/** `beforeTransaction` of an `attempt_first_factor` with strategy=password, on a sign-in or a session. */
export function precheckAttemptedPassword(table: 'sign_ins' | 'sessions') {
  return async (req: FapiRequestInfo, deps: IdentityDeps, clientToken: string | null): Promise<Prepared> => {
    try {
      const password = rawField(req.body, 'password');
      if (field(req.body, 'strategy') !== 'password' || password === undefined) return {};
      return await precheckPassword(
        deps,
        await userOfClientRow(deps.db, table, req.params.id, clientToken),
        password,
      );
    } catch (err) {
      // A full argon2 queue is answered now, not retried inside the transaction.
      if (isPasswordHashingBusy(err)) throw err;
      return {};
    }
  };
}
