import { randomToken, sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import {
  insertSatelliteLink,
  replaceClientDomainToken,
  takeSatelliteLink,
} from '../store/satellite-links.ts';
import type { ClientRow } from '../store/rows.ts';
import { hasSignedInSession } from '../store/sessions.ts';
import { satelliteFrontendApiUrl, type InstanceDomain } from './domains.ts';

/** How long a link token may be used: the browser follows the redirect at once. */
export const SATELLITE_LINK_TTL_SECONDS = 60;

/** The parameter clerk-js reads on a satellite to know the sync is done (`CLERK_SYNCED`). */
export const SYNCED_PARAM = '__clerk_synced';

/** `redirect_url` with `__clerk_synced=true` (any copy the caller put there replaced). */
export function syncedUrl(redirectUrl: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.delete(SYNCED_PARAM);
  url.searchParams.set(SYNCED_PARAM, 'true');
  return url.href;
}

/**
 * The primary domain's step of the sync: a browser signed in there gets a link to the satellite's
 * Frontend API carrying a single-use token for its client; a signed-out (or unknown) one goes straight
 * back to `redirect_url` with `__clerk_synced=true`.
 */
export async function primarySyncTarget(
  tx: Queryable,
  input: { client: ClientRow | null; satellite: InstanceDomain; redirectUrl: string; now: Date },
): Promise<string> {
  const { client, now } = input;
  if (!client || !(await hasSignedInSession(tx, client.id, now))) return syncedUrl(input.redirectUrl);
  const token = randomToken(32);
  await insertSatelliteLink(tx, {
    tokenHash: sha256(token),
    clientId: client.id,
    domainId: input.satellite.id,
    redirectUrl: input.redirectUrl,
    expiresAt: new Date(now.getTime() + SATELLITE_LINK_TTL_SECONDS * 1000),
    now,
  });
  const link = new URL(`${satelliteFrontendApiUrl(input.satellite)}/v1/client/link`);
  link.searchParams.set('token', token);
  link.searchParams.set('redirect_url', input.redirectUrl);
  return link.href;
}

/**
 * The satellite's step: the token, once, within SATELLITE_LINK_TTL_SECONDS, for this satellite and this
 * `redirect_url`, gives the browser a credential of the primary's client on the satellite's domain.
 * Null when the token is unknown, spent, expired, for another satellite or another landing page.
 */
export async function redeemSatelliteLink(
  tx: Queryable,
  input: { token: string; satellite: InstanceDomain; redirectUrl: string; now: Date },
): Promise<string | null> {
  const row = await takeSatelliteLink(tx, sha256(input.token), input.now);
  if (!row || row.domain_id !== input.satellite.id || row.redirect_url !== input.redirectUrl) return null;
  const credential = randomToken(32);
  await replaceClientDomainToken(tx, {
    tokenHash: sha256(credential),
    clientId: row.client_id,
    domainId: input.satellite.id,
    now: input.now,
  });
  return credential;
}
