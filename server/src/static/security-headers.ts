import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const ONE_YEAR_SECONDS = 365 * 24 * 3600;
/** The product's OAuth consent page (web/src/features/oauth-consent). */
const CONSENT_PAGE = '/oauth/consent';

/**
 * The browser security headers, on every answer (harmless on JSON, and a JSON URL opened as a page is
 * covered too): a CSP under which the SPA and clerk-js 5.90.0 run, never framed, nosniff, a referrer
 * policy. helmet writes them, built once: @fastify/helmet built helmet's middleware again for every
 * request (parsing the CSP each time), an eighth of the cost of a whole API answer. HSTS is ours, sent only in production over https (behind a proxy, as the
 * trusted X-Forwarded-Proto says), since a developer's http://localhost must never learn it.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  opts: {
    production: boolean;
    publishableKey: string;
    hosted: boolean;
    /**
     * Whether Google One Tap is offered now (the embedded instance's live setting, or GOOGLE_ONE_TAP with
     * hosted Clerk): Google's sign-in script, its iframe and its calls are allowed only then.
     */
    googleOneTap: () => boolean;
    /** Whether the embedded instance's captcha is Cloudflare Turnstile now: its script and iframe are allowed then. */
    turnstile?: () => boolean;
    /** Whether billing runs through Stripe now: Stripe.js's script, frames and calls are allowed then. */
    stripe?: () => boolean;
    /** The Frontend API's proxy path on this origin, if any (its redirects carry no opener policy). */
    fapiPath?: string | null;
  },
) {
  // Hosted Clerk without the proxy path: clerk-js calls its Frontend API host, shows img.clerk.com
  // avatars, and may run Cloudflare's bot-protection widget on sign-up (Clerk's documented CSP).
  const fapiHost = opts.hosted ? frontendApiHostOf(opts.publishableKey) : null;
  const hosted = fapiHost ? [`https://${fapiHost}`] : [];
  const headersFor = (oneTap: boolean, withTurnstile: boolean, withStripe: boolean) => {
    // Stripe.js as Stripe's CSP guide lists it for the Payment Element (the offline stand-in needs none).
    const stripeScript = withStripe ? ['https://js.stripe.com'] : [];
    const stripeFrames = withStripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : [];
    const stripeCalls = withStripe ? ['https://api.stripe.com'] : [];
    const turnstile = opts.hosted || withTurnstile ? ['https://challenges.cloudflare.com'] : [];
    // Google Identity Services as Google's CSP guide lists them: script, stylesheet, iframe and calls.
    const gsi = (path: string) => (oneTap ? [`https://accounts.google.com/gsi/${path}`] : []);
    return helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          // The Vite build and clerk-js (served from /__clerk-js/) are files on this origin; nothing inline.
          scriptSrc: ["'self'", ...hosted, ...turnstile, ...gsi('client'), ...stripeScript],
          // clerk-js styles its components with emotion, which inserts <style> elements.
          styleSrc: ["'self'", "'unsafe-inline'", ...gsi('style')],
          imgSrc: ["'self'", 'data:', 'blob:', ...(opts.hosted ? ['https://img.clerk.com'] : [])],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...hosted, ...gsi(''), ...stripeCalls],
          // clerk-js's timers run in a worker made from a blob (@clerk/shared workerTimers).
          workerSrc: ["'self'", 'blob:'],
          frameSrc: ["'self'", ...turnstile, ...gsi(''), ...stripeFrames],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      frameguard: { action: 'deny' },
      // Not helmet's `same-origin`: a popup this page opens keeps its opener across origins, which clerk-js's
      // popup sign-in needs (the provider, then the accounts.<domain> page that posts the result back). Other
      // windows still get no handle on ours.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // Other origins of the same site (ALLOWED_ORIGINS) may still show our avatars.
      crossOriginResourcePolicy: { policy: 'same-site' },
      strictTransportSecurity: false,
    });
  };
  const both = [false, true];
  const variants = both.map((oneTap) => both.map((ts) => both.map((st) => headersFor(oneTap, ts, st))));
  app.addHook('onRequest', (req, reply, done) =>
    variants[Number(opts.googleOneTap())]![Number(opts.turnstile?.() ?? false)]![
      Number(opts.stripe?.() ?? false)
    ]!(req.raw, reply.raw, (err) => done(err as Error | undefined)),
  );
  // The consent page shows the application's logo (docs/oauth-provider.md), an https image of the
  // application's own host: that page alone may load images from any https origin.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.url.split('?')[0] === CONSENT_PAGE) {
      const csp = reply.raw.getHeader('content-security-policy');
      if (typeof csp === 'string') {
        reply.raw.setHeader(
          'content-security-policy',
          csp.replace("img-src 'self'", "img-src 'self' https:"),
        );
      }
    }
    done();
  });
  // A popup on its way back from a provider passes through the Frontend API's redirects (the OAuth callback
  // to the accounts.<domain> popup-callback page). A redirect's opener policy counts as much as a page's: a
  // `same-origin…` one there moves the popup into a group of its own, and the page it lands on has no
  // `window.opener` to answer. A redirect shows nothing, so it carries none.
  const fapiPrefix = opts.fapiPath ? `${opts.fapiPath}/` : null;
  if (fapiPrefix)
    app.addHook('onSend', async (req, reply) => {
      if (reply.statusCode >= 300 && reply.statusCode < 400 && req.url.startsWith(fapiPrefix)) {
        reply.raw.removeHeader('cross-origin-opener-policy');
      }
    });
  if (opts.production)
    app.addHook('onRequest', async (req, reply) => {
      if (req.protocol === 'https') reply.header('strict-transport-security', `max-age=${ONE_YEAR_SECONDS}`);
    });
}

/** The host a publishable key names (`pk_live_` + base64 of `host$`), or null for a key of another shape. */
export function frontendApiHostOf(publishableKey: string): string | null {
  const encoded = /^pk_(?:live|test)_([A-Za-z0-9+/=_-]+)$/.exec(publishableKey)?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  return /^[a-z0-9.-]+(:\d+)?\$$/i.test(decoded) ? decoded.slice(0, -1) : null;
}
