import { z } from '@app/contract';

/**
 * A domain name as Clerk takes it: a host, with a port for local development (`app.localhost:4000`), no
 * scheme, no path; lower case.
 */
const DOMAIN_NAME =
  /^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/;

export const domainName = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .refine(
    (v) => DOMAIN_NAME.test(v),
    'must be a host name (with a port for local development), no scheme or path',
  );

/** A satellite's proxy URL: an absolute http(s) URL without query, fragment or userinfo. */
export const proxyUrl = z.string().refine((v) => {
  if (!URL.canParse(v)) return false;
  const u = new URL(v);
  return (
    (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.search && !u.hash
  );
}, 'must be an absolute http(s) URL without query, fragment or credentials');

export const satelliteSettings = z
  .object({
    /** Its id (`dmn_…`); when absent, one derived from the name. */
    id: z
      .string()
      .regex(/^dmn_[A-Za-z0-9]{1,64}$/)
      .optional(),
    /** The satellite application's host (`satellite.example.com`, or `app.localhost:4000`). */
    name: domainName,
    /** Where the satellite reaches the Frontend API (its `proxyUrl`); else `https://clerk.<name>`. */
    proxyUrl: proxyUrl.optional(),
  })
  .strict();

/** The `domains` slice: the satellite domains (the primary domain is `PUBLIC_URL`'s). */
export const domainsSettings = z
  .object({
    satellites: z.array(satelliteSettings).max(50).default([]),
  })
  .strict()
  .superRefine((value, ctx) => {
    const names = new Set<string>();
    const ids = new Set<string>();
    value.satellites.forEach((s, i) => {
      if (names.has(s.name))
        ctx.addIssue({
          code: 'custom',
          message: 'two satellites with one name',
          path: ['satellites', i, 'name'],
        });
      names.add(s.name);
      if (s.id !== undefined) {
        if (ids.has(s.id))
          ctx.addIssue({
            code: 'custom',
            message: 'two satellites with one id',
            path: ['satellites', i, 'id'],
          });
        ids.add(s.id);
      }
    });
  });

export type DomainsSettings = z.infer<typeof domainsSettings>;
export type SatelliteSettings = z.infer<typeof satelliteSettings>;
