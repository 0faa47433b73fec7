import type { Queryable } from '../db/database.ts';
import { permissionsOf } from '../organizations/roles.ts';
import type { TokenBilling, TokenOrganization, TokenPlan, TokenUser } from '../instance/session-token.ts';
import type { SessionRow } from './rows.ts';

/**
 * Which organisation a token is for: the session's active one, one named by id (`org_…`) or by slug
 * (Clerk's rule: an identifier not starting with `org_` is a slug), or none (the personal workspace).
 */
export type TokenOrganizationChoice = { session: true } | { id: string } | { slug: string } | { none: true };

/** The session columns a token and its checks need. */
export type TokenSession = Pick<
  SessionRow,
  | 'id'
  | 'client_id'
  | 'user_id'
  | 'status'
  | 'actor'
  | 'last_active_organization_id'
  | 'first_factor_verified_at'
  | 'second_factor_verified_at'
  | 'expire_at'
  | 'last_active_at'
  | 'created_at'
>;

/** What a token is minted from: the session, its user, and the chosen organisation while a member of it. */
export interface TokenSubject {
  session: TokenSession;
  user: TokenUser;
  /** The user has a real second factor (the `fva` counts its age only then). */
  twoFactor: boolean;
  organization: TokenOrganization | null;
  /** The current plans of the user and of the organisation (`pla`, `fea`); the caller drops them when billing is off. */
  billing: TokenBilling;
}

/** A payer's current plans (items active or past due) with their features, as JSON of one sub-select. */
export const currentPlansOf = (payerCondition: string) => `
  COALESCE((SELECT json_agg(json_build_object('s', bi.plan_slug, 'f', bi.plan_snapshot->'features')
                            ORDER BY bi.created_at, bi.id)
            FROM billing_payers bp
            JOIN billing_subscriptions bs ON bs.payer_id = bp.id
            JOIN billing_subscription_items bi ON bi.subscription_id = bs.id
            WHERE ${payerCondition} AND bi.status IN ('active', 'past_due')), '[]'::json)`;

type PlanJson = { s: string; f: unknown };

/** The plans read by `currentPlansOf`: the features as the snapshot keeps them (objects with a slug). */
export function tokenPlansOf(rows: PlanJson[] | null | undefined): TokenPlan[] {
  return (rows ?? []).map((r) => ({
    slug: r.s,
    features: (Array.isArray(r.f) ? r.f : [])
      .map((f: unknown) => (typeof f === 'string' ? f : (f as { slug?: unknown } | null)?.slug))
      .filter((f): f is string => typeof f === 'string'),
  }));
}

interface SubjectRow {
  s_id: string;
  s_client_id: string;
  s_user_id: string;
  s_status: SessionRow['status'];
  s_actor: Record<string, unknown> | null;
  s_last_active_organization_id: string | null;
  s_first_factor_verified_at: Date;
  s_second_factor_verified_at: Date | null;
  s_expire_at: Date;
  s_last_active_at: Date;
  s_created_at: Date;
  u_external_id: string | null;
  u_first_name: string | null;
  u_last_name: string | null;
  u_username: string | null;
  u_image_id: string | null;
  u_public_metadata: Record<string, unknown>;
  u_unsafe_metadata: Record<string, unknown>;
  u_created_at: Date;
  u_updated_at: Date;
  email_address: string | null;
  email_verified: boolean | null;
  phone_number: string | null;
  phone_verified: boolean | null;
  two_factor: boolean;
  o_id: string | null;
  o_name: string;
  o_slug: string;
  o_image_type: string | null;
  o_public_metadata: Record<string, unknown>;
  o_updated_at: Date;
  m_role: string;
  m_public_metadata: Record<string, unknown>;
  b_user: PlanJson[];
  b_org: PlanJson[];
}

/**
 * The session `s`'s user, primary email address and phone number, whether a real second factor is on
 * (an authenticator app, or a verified phone number reserved for SMS codes: see second-factor-state.ts),
 * and the chosen organisation joined to the user's membership in it (`subjectJoins(n)`: parameters $n, use
 * the session's organisation, $n+1, an organisation id, and $n+2, a slug, choose it: organizationParams),
 * and, when $6 (the instance bills), the current plans of the user and of that organisation.
 */
const SUBJECT_COLUMNS = `
  s.id AS s_id, s.client_id AS s_client_id, s.user_id AS s_user_id, s.status AS s_status, s.actor AS s_actor,
  s.last_active_organization_id AS s_last_active_organization_id,
  s.first_factor_verified_at AS s_first_factor_verified_at,
  s.second_factor_verified_at AS s_second_factor_verified_at, s.expire_at AS s_expire_at,
  s.last_active_at AS s_last_active_at, s.created_at AS s_created_at,
  u.external_id AS u_external_id, u.first_name AS u_first_name, u.last_name AS u_last_name,
  u.username AS u_username, u.image_id AS u_image_id, u.public_metadata AS u_public_metadata,
  u.unsafe_metadata AS u_unsafe_metadata, u.created_at AS u_created_at, u.updated_at AS u_updated_at,
  e.email_address, e.verified_at IS NOT NULL AS email_verified,
  p.phone_number, p.verified_at IS NOT NULL AS phone_verified,
  (EXISTS (SELECT 1 FROM totp_secrets t WHERE t.user_id = u.id AND t.verified_at IS NOT NULL)
   OR EXISTS (SELECT 1 FROM phone_numbers sf WHERE sf.user_id = u.id AND sf.reserved_for_second_factor
              AND sf.verified_at IS NOT NULL)) AS two_factor,
  om.*,
  CASE WHEN $6::boolean THEN ${currentPlansOf('bp.user_id = s.user_id')} ELSE '[]'::json END AS b_user,
  CASE WHEN $6::boolean AND om.o_id IS NOT NULL THEN ${currentPlansOf('bp.organization_id = om.o_id')}
       ELSE '[]'::json END AS b_org`;

const subjectJoins = (first: number) => `
  JOIN users u ON u.id = s.user_id
  LEFT JOIN email_addresses e ON e.id = u.primary_email_address_id
  LEFT JOIN phone_numbers p ON p.id = u.primary_phone_number_id
  LEFT JOIN LATERAL (
    SELECT o.id AS o_id, o.name AS o_name, o.slug AS o_slug, o.image_type AS o_image_type,
           o.public_metadata AS o_public_metadata, o.updated_at AS o_updated_at,
           m.role AS m_role, m.public_metadata AS m_public_metadata
    FROM organizations o
    JOIN organization_memberships m ON m.organization_id = o.id AND m.user_id = s.user_id
    WHERE o.id = CASE WHEN $${first}::boolean THEN s.last_active_organization_id ELSE $${first + 1}::text END
    UNION ALL
    SELECT o.id, o.name, o.slug, o.image_type, o.public_metadata, o.updated_at, m.role, m.public_metadata
    FROM organizations o
    JOIN organization_memberships m ON m.organization_id = o.id AND m.user_id = s.user_id
    WHERE $${first + 2}::text IS NOT NULL AND lower(o.slug) = lower($${first + 2}::text)
    LIMIT 1
  ) om ON true`;

function organizationParams(choice: TokenOrganizationChoice): [boolean, string | null, string | null] {
  if ('session' in choice) return [true, null, null];
  if ('id' in choice) return [false, choice.id, null];
  if ('slug' in choice) return [false, null, choice.slug];
  return [false, null, null];
}

/** The organisation a caller names ("" or nothing: none), by Clerk's id-or-slug rule. */
export function organizationChoice(identifier: string | null): TokenOrganizationChoice {
  if (!identifier) return { none: true };
  return identifier.startsWith('org_') ? { id: identifier } : { slug: identifier };
}

/**
 * Token minting's one read: the session `sessionId` of the client whose credential hashes to `tokenHash`,
 * with everything its token says (see SUBJECT_COLUMNS), without locks. `client: false` when no client has
 * that credential; `subject: null` when the client has no such session.
 */
export async function tokenSubjectByClientToken(
  db: Queryable,
  tokenHash: string,
  sessionId: string,
  organization: TokenOrganizationChoice,
  /** Whether the instance bills: only then are the plans read (no sub-selects on the hot path otherwise). */
  billing = false,
): Promise<{ client: boolean; subject: TokenSubject | null }> {
  const [row] = await db.query<{ client_id: string } & Partial<SubjectRow>>(
    `SELECT c.id AS client_id, subject.* FROM clients c
     LEFT JOIN LATERAL (
       SELECT ${SUBJECT_COLUMNS} FROM sessions s ${subjectJoins(3)}
       WHERE s.id = $2 AND s.client_id = c.id
     ) subject ON true
     WHERE c.token_hash = $1`,
    [tokenHash, sessionId, ...organizationParams(organization), billing],
  );
  if (!row) return { client: false, subject: null };
  return { client: true, subject: row.s_id ? subjectOf(row as SubjectRow) : null };
}

/**
 * What a token of the session `sessionId` is made from, whichever browser holds it (the Backend API's
 * `sessions.getToken`), read like `tokenSubjectByClientToken`; null when there is no such session.
 */
export async function tokenSubjectBySessionId(
  db: Queryable,
  sessionId: string,
  organization: TokenOrganizationChoice,
  billing = false,
): Promise<TokenSubject | null> {
  // $2 is unused by the joins' numbering ($3-$5 choose the organisation, $6 bills): it stays a typed null.
  const [row] = await db.query<SubjectRow>(
    `SELECT ${SUBJECT_COLUMNS} FROM sessions s ${subjectJoins(3)} WHERE s.id = $1 AND $2::text IS NULL`,
    [sessionId, null, ...organizationParams(organization), billing],
  );
  return row ? subjectOf(row) : null;
}

function subjectOf(r: SubjectRow): TokenSubject {
  return {
    session: {
      id: r.s_id,
      client_id: r.s_client_id,
      user_id: r.s_user_id,
      status: r.s_status,
      actor: r.s_actor,
      last_active_organization_id: r.s_last_active_organization_id,
      first_factor_verified_at: r.s_first_factor_verified_at,
      second_factor_verified_at: r.s_second_factor_verified_at,
      expire_at: r.s_expire_at,
      last_active_at: r.s_last_active_at,
      created_at: r.s_created_at,
    },
    user: {
      id: r.s_user_id,
      external_id: r.u_external_id,
      first_name: r.u_first_name,
      last_name: r.u_last_name,
      username: r.u_username,
      image_id: r.u_image_id,
      public_metadata: r.u_public_metadata,
      unsafe_metadata: r.u_unsafe_metadata,
      created_at: r.u_created_at,
      updated_at: r.u_updated_at,
      primary_email_address:
        r.email_address === null ? null : { email_address: r.email_address, verified: !!r.email_verified },
      primary_phone_number:
        r.phone_number === null ? null : { phone_number: r.phone_number, verified: !!r.phone_verified },
    },
    twoFactor: r.two_factor,
    organization: r.o_id
      ? {
          id: r.o_id,
          name: r.o_name,
          slug: r.o_slug,
          image_type: r.o_image_type,
          public_metadata: r.o_public_metadata,
          updated_at: r.o_updated_at,
          membership: {
            role: r.m_role,
            permissions: [...permissionsOf(r.m_role)],
            public_metadata: r.m_public_metadata,
          },
        }
      : null,
    billing: { user: tokenPlansOf(r.b_user), organization: r.o_id ? tokenPlansOf(r.b_org) : [] },
  };
}
