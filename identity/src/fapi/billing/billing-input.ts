import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import type { FapiRequestInfo } from '../context.ts';

/**
 * `limit` (1–500, default 10) and `offset` as clerk-js's `convertPageToOffsetSearchParams` sends them on
 * every paginated billing call, checked as the other Frontend API lists check them.
 */
export function billingPage(req: Pick<FapiRequestInfo, 'query'>): { limit: number; offset: number } {
  return pageOf(req.query);
}

/**
 * An id from the path: billing ids are a prefix and base32/base64url characters. Anything else (far too
 * long, other characters) is no id of ours: 404 without a read, as one that does not exist.
 */
export function billingId(value: string | undefined, what: string): string {
  if (!value || value.length > 64 || !/^[A-Za-z0-9_-]+$/.test(value)) throw errors.notFound(what);
  return value;
}

/** A page of an array already read in full (a payer's subscription items are few). */
export function pageOfArray<T>(all: T[], page: { limit: number; offset: number }): T[] {
  return all.slice(page.offset, page.offset + page.limit);
}

/**
 * A payment token as gateways make them (`pm_…`, `pm_offline_…`): letters, digits, `_` and `-`, at most
 * 255 characters. Anything else is refused before the gateway is asked.
 */
export function validPaymentToken(token: string): boolean {
  return token.length <= 255 && /^[A-Za-z0-9_-]+$/.test(token);
}
