import type { Queryable } from '../db/database.ts';
import { ownValue } from '../util/own-value.ts';

/** The Backend API's user filters (`users.getUserList` / `getCount`); empty lists filter nothing. */
export interface UserFilter {
  emailAddresses: string[];
  userIds: string[];
  externalIds: string[];
  organizationIds: string[];
  phoneNumbers: string[];
  usernames: string[];
  web3Wallets: string[];
  /** Part of a name or an address, or a whole id. */
  query: string;
}

const PRIMARY_EMAIL =
  '(SELECT lower(e.email_address) FROM email_addresses e WHERE e.id = u.primary_email_address_id)';
const PRIMARY_PHONE = '(SELECT p.phone_number FROM phone_numbers p WHERE p.id = u.primary_phone_number_id)';
const PRIMARY_WALLET =
  '(SELECT lower(w.web3_wallet) FROM web3_wallets w WHERE w.id = u.primary_web3_wallet_id)';

/** The orders the Backend API takes (`order_by`), without the sign of ascending. */
const ORDERS: Record<string, string> = {
  created_at: 'u.created_at ASC',
  '-created_at': 'u.created_at DESC',
  updated_at: 'u.updated_at ASC',
  '-updated_at': 'u.updated_at DESC',
  last_sign_in_at: 'u.last_sign_in_at ASC NULLS FIRST',
  '-last_sign_in_at': 'u.last_sign_in_at DESC NULLS LAST',
  last_active_at: 'u.last_active_at ASC NULLS FIRST',
  '-last_active_at': 'u.last_active_at DESC NULLS LAST',
  first_name: 'u.first_name ASC NULLS FIRST',
  '-first_name': 'u.first_name DESC NULLS LAST',
  last_name: 'u.last_name ASC NULLS FIRST',
  '-last_name': 'u.last_name DESC NULLS LAST',
  username: 'u.username ASC NULLS FIRST',
  '-username': 'u.username DESC NULLS LAST',
  email_address: `${PRIMARY_EMAIL} ASC NULLS FIRST`,
  '-email_address': `${PRIMARY_EMAIL} DESC NULLS LAST`,
  phone_number: `${PRIMARY_PHONE} ASC NULLS FIRST`,
  '-phone_number': `${PRIMARY_PHONE} DESC NULLS LAST`,
  web3wallet: `${PRIMARY_WALLET} ASC NULLS FIRST`,
  '-web3wallet': `${PRIMARY_WALLET} DESC NULLS LAST`,
};

export const USER_ORDER_KEYS = Object.keys(ORDERS);

/** The WHERE clause shared by the user list and its count. */
function userWhere(filter: UserFilter): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    clauses.push(sql(params.length));
  };
  const emails = filter.emailAddresses.map((e) => e.toLowerCase());
  if (emails.length)
    add(
      (n) => `u.id IN (SELECT user_id FROM email_addresses WHERE lower(email_address) = ANY($${n}))`,
      emails,
    );
  if (filter.userIds.length) add((n) => `u.id = ANY($${n})`, filter.userIds);
  if (filter.externalIds.length) add((n) => `u.external_id = ANY($${n})`, filter.externalIds);
  if (filter.organizationIds.length)
    add(
      (n) => `u.id IN (SELECT user_id FROM organization_memberships WHERE organization_id = ANY($${n}))`,
      filter.organizationIds,
    );
  if (filter.phoneNumbers.length)
    add(
      (n) => `u.id IN (SELECT user_id FROM phone_numbers WHERE phone_number = ANY($${n}))`,
      filter.phoneNumbers,
    );
  if (filter.usernames.length)
    add(
      (n) => `lower(u.username) = ANY($${n})`,
      filter.usernames.map((x) => x.toLowerCase()),
    );
  if (filter.web3Wallets.length)
    add(
      (n) => `u.id IN (SELECT user_id FROM web3_wallets WHERE lower(web3_wallet) = ANY($${n}))`,
      filter.web3Wallets.map((x) => x.toLowerCase()),
    );
  if (filter.query) {
    add(
      (n) => `(u.id = $${n} OR u.first_name ILIKE '%' || $${n} || '%' OR u.last_name ILIKE '%' || $${n} || '%'
        OR u.username ILIKE '%' || $${n} || '%'
        OR u.id IN (SELECT user_id FROM email_addresses WHERE email_address ILIKE '%' || $${n} || '%')
        OR u.id IN (SELECT user_id FROM phone_numbers WHERE phone_number ILIKE '%' || $${n} || '%')
        OR u.id IN (SELECT user_id FROM web3_wallets WHERE web3_wallet ILIKE '%' || $${n} || '%'))`,
      filter.query,
    );
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** The ids of one page of users, in `order` (one of `USER_ORDER_KEYS`), ties broken by id. */
export async function searchUserIds(
  db: Queryable,
  filter: UserFilter,
  page: { limit: number; offset: number },
  order: string,
): Promise<string[]> {
  const { where, params } = userWhere(filter);
  const rows = await db.query<{ id: string }>(
    `SELECT u.id FROM users u ${where} ORDER BY ${ownValue(ORDERS, order) ?? ORDERS['-created_at']}, u.id LIMIT ${page.limit} OFFSET ${page.offset}`,
    params,
  );
  return rows.map((r) => r.id);
}

export async function countUsers(db: Queryable, filter: UserFilter): Promise<number> {
  const { where, params } = userWhere(filter);
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users u ${where}`, params);
  return row?.n ?? 0;
}
