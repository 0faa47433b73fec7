import { ClerkError, errors } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { domainName, proxyUrl, type SatelliteSettings } from '../../domains/domain-settings.ts';
import { domainJSON, primaryDomain, satelliteDomain, satelliteDomains } from '../../domains/domains.ts';
import type { IdentityDeps } from '../../deps.ts';
import { forgetSatelliteDomain } from '../../store/satellite-links.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRequest, BapiRoute } from '../route.ts';

/**
 * Backend API: domains as `@clerk/backend` 2.10.1's `domains` calls them (list, add, update, delete).
 * The primary domain is `PUBLIC_URL`'s host and is neither added, changed nor deleted here; satellites are
 * the instance settings' `domains.satellites`, which these calls change (a settings file given at start
 * replaces them again, as it does every setting). The list is always `{data, total_count}`, as Clerk's.
 */

const PATH = '/v1/domains';
const MAX_SATELLITES = 50;

const duplicate = () =>
  new ClerkError(422, 'duplicate_record', 'duplicate record', 'A domain with this name already exists.', {
    param_name: 'name',
  });

const primaryUnchangeable = () =>
  errors.paramValueInvalid(
    'domain_id',
    "The primary domain is PUBLIC_URL's; it cannot be changed or deleted here.",
  );

/** The settings' satellites, changed one request at a time in this process (a read, then a write). */
let queue: Promise<unknown> = Promise.resolve();
function changeSatellites<T>(
  deps: IdentityDeps,
  change: (current: SatelliteSettings[]) => { satellites: SatelliteSettings[]; answer: T },
): Promise<T> {
  const run = queue.then(async () => {
    await deps.settings.refresh();
    const settings = deps.settings.settings;
    const { satellites, answer } = change(settings.domains?.satellites ?? []);
    await deps.settings.set({ ...settings, domains: { ...settings.domains, satellites } });
    return answer;
  });
  queue = run.catch(() => {});
  return run;
}

function nameOf(req: BapiRequest, required: boolean): string | undefined {
  const raw = req.fields.string('name');
  if (raw === undefined || raw.trim() === '') {
    if (required) throw errors.paramMissing('name');
    return undefined;
  }
  const parsed = domainName.safeParse(raw);
  if (!parsed.success)
    throw errors.paramValueInvalid('name', 'name must be a host name, without scheme or path.');
  return parsed.data;
}

/** `proxy_url`: undefined leaves it, '' removes it. */
function proxyUrlOf(req: BapiRequest): string | null | undefined {
  const raw = req.fields.string('proxy_url');
  if (raw === undefined) return undefined;
  if (raw.trim() === '') return null;
  if (!proxyUrl.safeParse(raw.trim()).success) {
    throw errors.paramValueInvalid('proxy_url', 'proxy_url must be an absolute http(s) URL.');
  }
  return raw.trim().replace(/\/+$/, '');
}

export const domainRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: PATH,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(_req, deps) {
      const all = [primaryDomain(deps.config), ...satelliteDomains(deps.settings.settings)];
      return { data: all.map((d) => domainJSON(d, deps.config)), total_count: all.length };
    },
  },
  {
    method: 'POST',
    path: PATH,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ name: 'string', is_satellite: 'boolean', proxy_url: 'string' }) },
    async handler(req, deps) {
      const name = nameOf(req, true)!;
      const isSatellite = req.fields.boolean('is_satellite');
      if (isSatellite !== true) {
        throw errors.paramValueInvalid(
          'is_satellite',
          'Only satellite domains can be added (is_satellite: true).',
        );
      }
      const proxy = proxyUrlOf(req);
      if (name === primaryDomain(deps.config).name) throw duplicate();
      const added = await changeSatellites(deps, (current) => {
        if (current.some((s) => s.name === name)) throw duplicate();
        if (current.length >= MAX_SATELLITES) {
          throw errors.paramValueInvalid(
            'name',
            `An instance has at most ${MAX_SATELLITES} satellite domains.`,
          );
        }
        const entry: SatelliteSettings = { id: newId('dmn'), name, ...(proxy ? { proxyUrl: proxy } : {}) };
        return { satellites: [...current, entry], answer: entry };
      });
      return domainJSON(satelliteDomain(added), deps.config);
    },
  },
  {
    method: 'PATCH',
    path: `${PATH}/:id`,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ name: 'string', proxy_url: 'string', is_secondary: 'boolean' }) },
    async handler(req, deps) {
      const id = req.params.id!;
      if (id === primaryDomain(deps.config).id) throw primaryUnchangeable();
      if (!satelliteDomains(deps.settings.settings).some((d) => d.id === id)) throw errors.notFound('domain');
      const name = nameOf(req, false);
      const proxy = proxyUrlOf(req);
      req.fields.boolean('is_secondary');
      if (name === primaryDomain(deps.config).name) throw duplicate();
      const updated = await changeSatellites(deps, (current) => {
        const index = current.findIndex((s) => satelliteDomain(s).id === id);
        if (index < 0) throw errors.notFound('domain');
        if (name !== undefined && current.some((s, i) => i !== index && s.name === name)) throw duplicate();
        const was = current[index]!;
        const entry: SatelliteSettings = {
          // A domain declared without an id keeps the one it was known by.
          id: satelliteDomain(was).id,
          name: name ?? was.name,
          ...(proxy === null
            ? {}
            : proxy !== undefined
              ? { proxyUrl: proxy }
              : was.proxyUrl
                ? { proxyUrl: was.proxyUrl }
                : {}),
        };
        return { satellites: current.map((s, i) => (i === index ? entry : s)), answer: entry };
      });
      return domainJSON(satelliteDomain(updated), deps.config);
    },
  },
  {
    method: 'DELETE',
    path: `${PATH}/:id`,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const id = req.params.id!;
      if (id === primaryDomain(deps.config).id) throw primaryUnchangeable();
      if (!satelliteDomains(deps.settings.settings).some((d) => d.id === id)) throw errors.notFound('domain');
      await changeSatellites(deps, (current) => {
        if (!current.some((s) => satelliteDomain(s).id === id)) throw errors.notFound('domain');
        return { satellites: current.filter((s) => satelliteDomain(s).id !== id), answer: null };
      });
      // Its browsers' credentials end with it: a cookie left on its domain finds no client.
      await forgetSatelliteDomain(deps.db, id);
      return { object: 'domain', id, deleted: true };
    },
  },
];
