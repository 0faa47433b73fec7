import { errors } from '../errors.ts';
import { normalizePhoneNumber } from '../phone-numbers/phone-number.ts';
import { isWeb3Address, parseWeb3Address } from '../web3/web3-address.ts';
import type { ListedIdentifierRow, ListedIdentifierType } from '../store/identifier-lists.ts';

/** RFC 5321's longest address; a longer identifier is refused before anything else is read. */
export const MAX_IDENTIFIER_LENGTH = 254;

/** A domain's labels: letters, digits and hyphens, at least two of them, the last alphabetic. */
const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** One address: no spaces, control characters or a second `@` (users/email-format.ts is stricter on length). */
const LOCAL_RE = /^[^\s\p{C}@<>()[\]\\,;:"]+$/u;

export interface ListedIdentifier {
  identifier: string;
  type: ListedIdentifierType;
}

const invalid = () =>
  errors.paramFormatInvalid(
    'identifier',
    'an email address, a domain (*@example.com), a phone number with its country code or a web3 wallet address',
  );

/**
 * What the operator lists, in the one form it is matched in: an email address lowercased; a whole domain,
 * given as `*@example.com` or `@example.com`, kept as `*@example.com` (an email_address pattern, as
 * Clerk types it); a phone number in E.164; a wallet in its checksummed form. Anything else is refused.
 */
export function parseListedIdentifier(raw: string, opts: { testMode: boolean }): ListedIdentifier {
  const value = raw.trim();
  if (value.length > MAX_IDENTIFIER_LENGTH) throw errors.paramMaxLength('identifier', MAX_IDENTIFIER_LENGTH);
  if (value.startsWith('+')) {
    const phone = normalizePhoneNumber(value, opts);
    if (!phone) throw invalid();
    return { identifier: phone, type: 'phone_number' };
  }
  if (isWeb3Address(value)) return { identifier: parseWeb3Address(value, 'identifier'), type: 'web3_wallet' };
  const lower = value.toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) throw invalid();
  const local = lower.slice(0, at);
  const domain = lower.slice(at + 1);
  if (!DOMAIN_RE.test(domain)) throw invalid();
  if (local === '' || local === '*') return { identifier: `*@${domain}`, type: 'email_address' };
  if (!LOCAL_RE.test(local)) throw invalid();
  return { identifier: lower, type: 'email_address' };
}

/**
 * The forms under which something a person types may be listed: itself lowercased (wallets and E.164
 * numbers included, as the lists compare without case), and for an email address its domain's pattern.
 */
export function listCandidates(identifiers: readonly (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const raw of identifiers) {
    if (!raw) continue;
    const value = raw.trim().toLowerCase();
    out.add(value);
    const at = value.lastIndexOf('@');
    if (at > 0) out.add(`*@${value.slice(at + 1)}`);
  }
  return [...out];
}

/** This provider serves one instance per database; Clerk's resources name it (see webhooks/record-event.ts). */
const INSTANCE_ID = 'ins_embedded';

/** Clerk's AllowlistIdentifier / BlocklistIdentifier. `invitation_id` is null: `notify` sends none here. */
export function listedIdentifierJSON(
  object: 'allowlist_identifier' | 'blocklist_identifier',
  row: ListedIdentifierRow,
) {
  return {
    object,
    id: row.id,
    identifier: row.identifier,
    identifier_type: row.identifier_type,
    instance_id: INSTANCE_ID,
    ...(object === 'allowlist_identifier' ? { invitation_id: null } : {}),
    created_at: row.created_at.getTime(),
    updated_at: row.updated_at.getTime(),
  };
}
