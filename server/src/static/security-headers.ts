import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/**
 * The browser security headers, on every answer (harmless on JSON, and a JSON URL opened as a page is
 * covered too): a CSP under which the SPA and clerk-js 5.90.0 run, never framed, nosniff, a referrer
 * policy. helmet writes them, built once: @fastify/helmet built helmet's middleware again for every
 * request (parsing the CSP each time), an eighth of the cost of a whole API answer. HSTS is ours, sent only in production over https (behind a proxy, as the
 * trusted X-Forwarded-Proto says), since a developer's http://localhost must never learn it.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  opts: { production: boolean; publishableKey: string; hosted: boolean },
) {
  // Hosted Clerk without the proxy path: clerk-js calls its Frontend API host, shows img.clerk.com
  // avatars, and may run Cloudflare's bot-protection widget on sign-up (Clerk's documented CSP).
  const fapiHost = opts.hosted ? frontendApiHostOf(opts.publishableKey) : null;
  const hosted = fapiHost ? [`https://${fapiHost}`] : [];
  const turnstile = opts.hosted ? ['https://challenges.cloudflare.com'] : [];
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The Vite build and clerk-js (served from /__clerk-js/) are files on this origin; nothing inline.
        scriptSrc: ["'self'", ...hosted, ...turnstile],
        // clerk-js styles its components with emotion, which inserts <style> elements.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(opts.hosted ? ['https://img.clerk.com'] : [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...hosted],
        // clerk-js's timers run in a worker made from a blob (@clerk/shared workerTimers).
        workerSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'", ...turnstile],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Other origins of the same site (ALLOWED_ORIGINS) may still show our avatars.
    crossOriginResourcePolicy: { policy: 'same-site' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (req, reply, done) =>
    securityHeaders(req.raw, reply.raw, (err) => done(err as Error | undefined)),
  );
  if (opts.production)
    app.addHook('onRequest', async (req, reply) => {
      if (req.protocol === 'https') reply.header('strict-transport-security', `max-age=${ONE_YEAR_SECONDS}`);
    });
}

/** The host a publishable key names (`pk_live_` + base64 of `host$`), or null for a key of another shape. */
function frontendApiHostOf(publishableKey: string): string | null {
  const encoded = /^pk_(?:live|test)_([A-Za-z0-9+/=_-]+)$/.exec(publishableKey)?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  return /^[a-z0-9.-]+(:\d+)?\$$/i.test(decoded) ? decoded.slice(0, -1) : null;
}
