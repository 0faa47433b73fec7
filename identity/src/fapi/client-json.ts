import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { tokenForSubject } from '../organizations/active-organization.ts';
import { tokenSubjectOfOwner } from '../sessions/token-subject-of-owner.ts';
import { factorVerificationAge } from '../reverification/factor-age.ts';
import { twoFactorEnabled } from '../second-factors/second-factor-state.ts';
import type { ClientRow, SessionRow } from '../store/rows.ts';
import { findLiveSignIn, findLiveSignUp } from '../store/clients.ts';
import { signedInSessionsOfClient } from '../store/sessions.ts';
import { signInJSON } from '../serializers/sign-in.ts';
import { signUpJSON } from '../serializers/sign-up.ts';
import { publicUserDataJSON } from '../serializers/user.ts';
import { ms } from '../serializers/verification.ts';
import { fullUserJSON, loadUsers, type Owner } from '../users/load-users.ts';
import { web3FactorSource } from '../web3/web3-first-factors.ts';
import { passkeyFactorOffered } from '../passkeys/passkey-factor.ts';

const CLIENT_COOKIE_LIFETIME_MS = 365 * 24 * 3600 * 1000;

export async function sessionJSON(
  deps: IdentityDeps,
  tx: Queryable,
  session: SessionRow,
  owner: Owner,
  azp: string | null,
  now: Date,
) {
  const signedIn = session.status === 'active' || session.status === 'pending';
  const fva = factorVerificationAge(session, twoFactorEnabled(owner.secondFactors), now);
  // The token's user and organisation come from the owner already loaded for the JSON: no query.
  const jwt = signedIn
    ? await tokenForSubject(deps, tokenSubjectOfOwner(session, owner), { session, azp, now, fva })
    : null;
  return {
    object: 'session',
    id: session.id,
    status: session.status,
    expire_at: ms(session.expire_at),
    abandon_at: ms(session.abandon_at),
    last_active_at: ms(session.last_active_at),
    last_active_token: jwt ? { object: 'token', jwt } : null,
    last_active_organization_id: session.last_active_organization_id,
    actor: session.actor,
    tasks: session.status === 'pending' ? [{ key: 'choose-organization' }] : null,
    factor_verification_age: fva,
    user: fullUserJSON(deps, owner, now),
    public_user_data: publicUserDataJSON(owner.user, owner.emails, deps),
    created_at: ms(session.created_at),
    updated_at: ms(session.updated_at),
  };
}

/**
 * The full, current client as clerk-js expects it piggy-backed on every mutation: every signed-in
 * session with its user and a fresh token, and the in-progress sign-in and sign-up. `loaded`: users
 * already read in this transaction since its last write (the response's), not read again. `sessionsKnown`:
 * all the client's sessions, when the caller knows them (a client created by this request has only those
 * it opened), not read again.
 */
export async function clientJSON(
  deps: IdentityDeps,
  tx: Queryable,
  client: ClientRow,
  azp: string | null,
  now: Date,
  loaded?: Map<string, Owner>,
  sessionsKnown?: SessionRow[],
) {
  const sessions = sessionsKnown ?? (await signedInSessionsOfClient(tx, client.id, now));
  const signIn = client.sign_in_id ? await findLiveSignIn(tx, client.sign_in_id, now) : null;
  const signUp = client.sign_up_id ? await findLiveSignUp(tx, client.sign_up_id, now) : null;
  const wanted = [...sessions.map((s) => s.user_id), ...(signIn?.user_id ? [signIn.user_id] : [])];
  const owners = new Map(loaded);
  for (const [id, owner] of await loadUsers(
    tx,
    wanted.filter((id) => !owners.has(id)),
  ))
    owners.set(id, owner);
  const sessionsJSON = [];
  for (const s of sessions) {
    const owner = owners.get(s.user_id);
    if (owner) sessionsJSON.push(await sessionJSON(deps, tx, s, owner, azp, now));
  }
  const signInOwner = signIn?.user_id ? owners.get(signIn.user_id) : undefined;
  const lastActive =
    sessions.find((s) => s.id === client.last_active_session_id) ?? sessions[sessions.length - 1];
  return {
    object: 'client',
    id: client.id,
    sessions: sessionsJSON,
    sign_in: signIn
      ? signInJSON(
          signIn,
          signInOwner?.user ?? null,
          signInOwner?.emails ?? [],
          deps,
          signInOwner?.secondFactors ?? null,
          signInOwner?.phones ?? [],
          web3FactorSource(deps.settings.settings, signInOwner),
          passkeyFactorOffered(deps.settings.settings, signInOwner),
        )
      : null,
    sign_up: signUp ? signUpJSON(signUp) : null,
    last_active_session_id: lastActive?.id ?? null,
    captcha_bypass: false,
    cookie_expires_at: now.getTime() + CLIENT_COOKIE_LIFETIME_MS,
    created_at: ms(client.created_at),
    updated_at: ms(client.updated_at),
  };
}
