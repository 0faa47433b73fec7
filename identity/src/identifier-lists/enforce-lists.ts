import { ClerkError } from '../errors.ts';
import type { Queryable } from '../db/database.ts';
import { listHasAny, listIsEmpty } from '../store/identifier-lists.ts';
import { listCandidates } from './listed-identifier.ts';

/**
 * Clerk's answer to an identifier the lists keep out (403 `not_allowed_access`); clerk-js shows it under
 * the form, and translates it by its code (French included).
 */
export const identifierNotAllowed = () =>
  new ClerkError(
    403,
    'not_allowed_access',
    'You are not allowed to access this application.',
    'Access to this application is restricted: this identifier is not allowed. Contact the application’s administrator.',
  );

/**
 * Whether a sign-up naming `identifiers` (its email address, phone number, wallet) may go on: none of
 * them is blocklisted, and, when the allowlist has any entry, each of them is on it (an address, or its
 * domain as `*@domain`). A sign-up opened by an invitation's ticket was let in by the operator already,
 * so only the blocklist applies to it. The allowlist is enforced as soon as it is non-empty: this
 * provider has no separate switch (docs/sign-up-modes.md).
 */
export async function assertMaySignUpWith(
  tx: Queryable,
  identifiers: readonly (string | null | undefined)[],
  opts: { invited: boolean },
): Promise<void> {
  const named = identifiers.filter((i): i is string => Boolean(i));
  if (named.length === 0) return;
  if (await listHasAny(tx, 'blocklist', listCandidates(named))) throw identifierNotAllowed();
  if (opts.invited || (await listIsEmpty(tx, 'allowlist'))) return;
  for (const identifier of named) {
    if (!(await listHasAny(tx, 'allowlist', listCandidates([identifier])))) throw identifierNotAllowed();
  }
}

/**
 * A sign-in naming a blocklisted identifier (or an address at a blocklisted domain) goes no further; nor
 * does an invitation to the application for one (the operator's own blocklist wins over its invitation).
 */
export async function assertNotBlocklisted(tx: Queryable, identifier: string): Promise<void> {
  if (await listHasAny(tx, 'blocklist', listCandidates([identifier]))) throw identifierNotAllowed();
}

export const assertMaySignInWith = assertNotBlocklisted;
