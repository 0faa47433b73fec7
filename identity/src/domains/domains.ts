import type { IdentityConfig } from '../config.ts';
import { sha256 } from '../crypto/secrets.ts';
import { accountsPortalOrigin } from '../http/redirects.ts';
import type { InstanceSettings } from '../instance/settings/schema.ts';
import type { SatelliteSettings } from './domain-settings.ts';

/** A domain of the instance: the primary one (`PUBLIC_URL`'s host) or a satellite of the settings. */
export interface InstanceDomain {
  id: string;
  name: string;
  isSatellite: boolean;
  /** Where the browser reaches the Frontend API for this domain, when it is a proxy of the application. */
  proxyUrl: string | null;
}

/** A stable id for a domain the settings name without one. */
export function derivedDomainId(name: string): string {
  return `dmn_${sha256(`domain:${name}`).slice(0, 27)}`;
}

export function primaryDomain(config: Pick<IdentityConfig, 'publicUrl' | 'fapiPath'>): InstanceDomain {
  const name = new URL(config.publicUrl).host;
  return {
    id: derivedDomainId(name),
    name,
    isSatellite: false,
    proxyUrl: `${config.publicUrl}${config.fapiPath}`,
  };
}

export function satelliteDomain(s: SatelliteSettings): InstanceDomain {
  return {
    id: s.id ?? derivedDomainId(s.name),
    name: s.name,
    isSatellite: true,
    proxyUrl: s.proxyUrl ?? null,
  };
}

export function satelliteDomains(settings: InstanceSettings): InstanceDomain[] {
  return (settings.domains?.satellites ?? []).map(satelliteDomain);
}

/** Loopback hosts, which browsers treat as secure over plain http (local development). */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '127.0.0.1' ||
    hostname === '[::1]'
  );
}

/**
 * The exact origins a satellite's pages are served from: `https://<name>`, also `http://<name>` for a
 * loopback name (`app.localhost:4000`), and its proxy URL's origin. Never a subdomain of them.
 */
export function satelliteOrigins(domain: InstanceDomain): string[] {
  const https = new URL(`https://${domain.name}`);
  const origins = new Set([https.origin]);
  if (isLoopbackHost(https.hostname)) origins.add(new URL(`http://${domain.name}`).origin);
  if (domain.proxyUrl) origins.add(new URL(domain.proxyUrl).origin);
  return [...origins];
}

/** Every satellite origin of the instance (for CORS, redirect checks). */
export function allSatelliteOrigins(settings: InstanceSettings): string[] {
  return satelliteDomains(settings).flatMap(satelliteOrigins);
}

/** The satellite whose pages are served from `origin` (exactly), or null. */
export function satelliteOfOrigin(settings: InstanceSettings, origin: string): InstanceDomain | null {
  return satelliteDomains(settings).find((d) => satelliteOrigins(d).includes(origin)) ?? null;
}

/** The Frontend API of a satellite as its browser reaches it: its proxy URL, or `https://clerk.<name>`. */
export function satelliteFrontendApiUrl(domain: InstanceDomain): string {
  return (domain.proxyUrl ?? `https://clerk.${domain.name}`).replace(/\/+$/, '');
}

/** Clerk's `domain` object (`@clerk/backend` 2.10.1's DomainJSON). */
export function domainJSON(domain: InstanceDomain, config: Pick<IdentityConfig, 'frontendApiHost'>) {
  return {
    object: 'domain',
    id: domain.id,
    name: domain.name,
    is_satellite: domain.isSatellite,
    frontend_api_url: domain.isSatellite
      ? satelliteFrontendApiUrl(domain)
      : `https://${config.frontendApiHost}`,
    accounts_portal_url: domain.isSatellite ? null : accountsPortalOrigin(config.frontendApiHost),
    proxy_url: domain.proxyUrl,
    development_origin: '',
    cname_targets: [],
  };
}
