import type { Queryable } from '../db/database.ts';
import type { PhoneNumberRow } from './phone-numbers.ts';
import type { EmailAddressRow, MembershipRow, OrganizationRow, UserRow } from './rows.ts';
import { SECOND_FACTOR_COLUMNS, type SecondFactorColumns } from './second-factors.ts';
import { ORG_COLUMNS } from './organizations.ts';
import type { ExternalAccountRow } from './external-accounts.ts';
import type { EnterpriseAccountRow } from './enterprise-sso.ts';
import type { Web3WalletRow } from './web3-wallets.ts';
import { PASSKEY_SUMMARY_COLUMNS, type PasskeySummary } from './passkeys.ts';
import type { TokenPlan } from '../instance/session-token.ts';
import { tokenPlansOf } from './token-subjects.ts';
import { signInIdentifierCondition } from './users.ts';
import {
  limitWindowsColumn,
  limitWindowsParams,
  waitsOfWindows,
  type LimitWindow,
  type RateLimitRule,
} from './rate-limits.ts';

/** A user row with everything its JSON embeds, as one query returns it. */
export interface OwnerRow extends SecondFactorColumns {
  user: UserRow;
  emails: EmailAddressRow[];
  phones: PhoneNumberRow[];
  memberships: { membership: MembershipRow; organization: OrganizationRow }[];
  externalAccounts: ExternalAccountRow[];
  enterpriseAccounts: EnterpriseAccountRow[];
  web3Wallets: Web3WalletRow[];
  /** Verified passkeys, without their keys. */
  passkeys: PasskeySummary[];
  /**
   * The current plans (billing items active or past due) of the user and of each organisation they are a
   * member of, for the `pla`/`fea` claims of the tokens a client's answer carries: `organizationId` null
   * for the user's own.
   */
  billingPlans: { organizationId: string | null; plan: TokenPlan }[];
}

const PASSKEY_OBJECT = `json_build_object(${PASSKEY_SUMMARY_COLUMNS.map((c) => `'${c}', k.${c}`).join(', ')})`;

const ORG_OBJECT = `json_build_object(${ORG_COLUMNS.split(',')
  .map((c) => `'${c.trim()}', o.${c.trim()}`)
  .join(', ')})`;

/**
 * The users with their addresses, phone numbers, memberships (each with its organisation) and second
 * factors in one statement: every answer that carries a client (page loads, sign-ins) or a user (the
 * Backend API) reads them, and on PGlite each statement costs more than the rows it returns. The embedded
 * rows come back as JSON and are turned into the same rows the tables' own queries return
 * (identity/test/load-users.test.ts compares them).
 */
export function ownerRowsOf(db: Queryable, ids: string[]): Promise<OwnerRow[]> {
  return ownerRowsWhere(db, 'u.id = ANY($1)', [ids]);
}

/**
 * The user who signs in with `identifier` (signInIdentifierCondition), with everything
 * ownerRowsOf reads: a sign-in reads its account once, for the lockout, the second factors and the answer.
 */
export async function ownerRowOfIdentifier(db: Queryable, identifier: string): Promise<OwnerRow | null> {
  const [row] = await ownerRowsWhere(db, signInIdentifierCondition(identifier), [identifier]);
  return row ?? null;
}

/**
 * ownerRowOfIdentifier and, in the same statement, the windows of the rate limits the sign-in will check
 * (waitsIfReached): each rule's key with the seconds to wait.
 */
export async function ownerRowOfIdentifierWithLimits(
  db: Queryable,
  identifier: string,
  rules: RateLimitRule[],
  now: Date,
): Promise<{ row: OwnerRow | null; waits: Map<string, number> }> {
  const rows = await ownerRowsWhere(db, signInIdentifierCondition(identifier), [identifier], {
    column: limitWindowsColumn('$2', '$3', '$4'),
    params: limitWindowsParams(rules, now),
  });
  const windows = (rows[0]?.extra ?? []) as LimitWindow[];
  const row = rows[0]?.user.id ? rows[0] : null;
  return { row, waits: waitsOfWindows(windows, rules, now) };
}

/**
 * The owners `where` selects; with `extra`, one more column (`extra` of the answer, parameters after
 * `params`) read whether or not any user matches (a row of nulls then, whose `user.id` is null).
 */
async function ownerRowsWhere(
  db: Queryable,
  where: string,
  params: unknown[],
  extra?: { column: string; params: unknown[] },
): Promise<(OwnerRow & { extra?: unknown })[]> {
  const from = extra ? `(VALUES (1)) AS one LEFT JOIN users u ON ${where}` : `users u WHERE ${where}`;
  const rows = await db.query<
    UserRow &
      SecondFactorColumns & {
        j_emails: Json[];
        j_phones: Json[];
        j_memberships: Json[];
        j_external: Json[];
        j_enterprise: Json[];
        j_web3: Json[];
        j_passkeys: Json[];
        j_billing: { o: string | null; s: string; f: unknown }[];
        x_extra?: unknown;
      }
  >(
    `SELECT u.*, ${SECOND_FACTOR_COLUMNS},${extra ? ` ${extra.column} AS x_extra,` : ''}
       COALESCE((SELECT json_agg(e ORDER BY e.created_at) FROM email_addresses e WHERE e.user_id = u.id),
                '[]'::json) AS j_emails,
       COALESCE((SELECT json_agg(p ORDER BY p.created_at, p.id) FROM phone_numbers p WHERE p.user_id = u.id),
                '[]'::json) AS j_phones,
       COALESCE((SELECT json_agg(json_build_object('m', m, 'o', ${ORG_OBJECT}) ORDER BY m.created_at, m.id)
                 FROM organization_memberships m JOIN organizations o ON o.id = m.organization_id
                 WHERE m.user_id = u.id),
                '[]'::json) AS j_memberships,
       COALESCE((SELECT json_agg(to_jsonb(x) - 'access_token_sealed' - 'refresh_token_sealed'
                                 ORDER BY x.created_at, x.id)
                 FROM external_accounts x WHERE x.user_id = u.id),
                '[]'::json) AS j_external,
       COALESCE((SELECT json_agg(a ORDER BY a.created_at, a.id) FROM enterprise_accounts a WHERE a.user_id = u.id),
                '[]'::json) AS j_enterprise,
       COALESCE((SELECT json_agg(w ORDER BY w.created_at, w.id) FROM web3_wallets w WHERE w.user_id = u.id),
                '[]'::json) AS j_web3,
       COALESCE((SELECT json_agg(${PASSKEY_OBJECT} ORDER BY k.created_at, k.id) FROM passkeys k
                 WHERE k.user_id = u.id AND k.verified_at IS NOT NULL),
                '[]'::json) AS j_passkeys,
       COALESCE((SELECT json_agg(json_build_object('o', bp.organization_id, 's', bi.plan_slug,
                                                   'f', bi.plan_snapshot->'features')
                                 ORDER BY bi.created_at, bi.id)
                 FROM billing_payers bp
                 JOIN billing_subscriptions bs ON bs.payer_id = bp.id
                 JOIN billing_subscription_items bi ON bi.subscription_id = bs.id
                 WHERE (bp.user_id = u.id OR bp.organization_id IN
                         (SELECT bm.organization_id FROM organization_memberships bm WHERE bm.user_id = u.id))
                   AND bi.status IN ('active', 'past_due')),
                '[]'::json) AS j_billing
     FROM ${from}`,
    extra ? [...params, ...extra.params] : params,
  );
  return rows.map(
    ({
      j_emails,
      j_phones,
      j_memberships,
      j_external,
      j_enterprise,
      j_web3,
      j_passkeys,
      j_billing,
      x_extra,
      sf_totp,
      sf_backup_codes,
      sf_phones,
      ...user
    }) => ({
      ...(extra ? { extra: x_extra } : {}),
      user,
      sf_totp,
      sf_backup_codes,
      sf_phones,
      emails: j_emails.map((e) => withDates<EmailAddressRow>(e)),
      phones: j_phones.map((p) => withDates<PhoneNumberRow>(p)),
      memberships: j_memberships.map((pair) => ({
        membership: withDates<MembershipRow>(pair.m as Json),
        organization: withDates<OrganizationRow>(pair.o as Json),
      })),
      externalAccounts: j_external.map((x) => withDates<ExternalAccountRow>(x)),
      enterpriseAccounts: j_enterprise.map((x) => withDates<EnterpriseAccountRow>(x)),
      web3Wallets: j_web3.map((w) => withDates<Web3WalletRow>(w)),
      passkeys: j_passkeys.map((k) => withDates<PasskeySummary>(k)),
      billingPlans: j_billing.map((b) => ({ organizationId: b.o, plan: tokenPlansOf([b])[0]! })),
    }),
  );
}

type Json = Record<string, unknown>;

/**
 * A row read as JSON, with its timestamps (the `…_at` columns, at the top level only: a `verification`
 * object keeps its own strings, as jsonb read by pg does) turned into Dates as pg turns them. Both keep
 * milliseconds and drop the microseconds.
 */
function withDates<T>(row: Json): T {
  const out: Json = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = key.endsWith('_at') && typeof value === 'string' ? new Date(value) : value;
  }
  return out as T;
}
