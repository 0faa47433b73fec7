import { fileURLToPath } from 'node:url';
import { clerkMiddleware, createClerkClient, getAuth } from '@clerk/express';
import express, { type Express, type Request } from 'express';
import { forwardTo } from './proxy.ts';
import { WORDS, type Language } from './words.ts';

export interface SatelliteOptions {
  /** The product's origin (the primary domain), e.g. `http://localhost:3000`. */
  productUrl: string;
  /** This application's own origin, e.g. `http://satellite.localhost:4000`; a satellite domain of the instance. */
  ownUrl: string;
  /** The instance's keys: the product's publishable key and the instance secret key. */
  publishableKey: string;
  secretKey: string;
  /** The Frontend API's path on the product (`/__clerk`); this application forwards the same path. */
  fapiPath?: string;
  /** The Backend API's path on the product. */
  backendApiPath?: string;
  /** The clerk-js version the product serves under `/__clerk-js/<version>/`. */
  clerkJsVersion?: string;
}

const PUBLIC_DIR = fileURLToPath(new URL('../public', import.meta.url));

/**
 * A server-rendered application on `@clerk/express`, unmodified, that uses the product's instance as a
 * satellite (production keys): the Frontend API and clerk-js reach it through `fapiPath` and `/__clerk-js/`
 * on this origin, forwarded to the product; every page is checked by `clerkMiddleware` (the handshake).
 */
export function createSatelliteApp(opts: SatelliteOptions): Express {
  const fapiPath = opts.fapiPath ?? '/__clerk';
  const proxyUrl = `${opts.ownUrl}${fapiPath}`;
  const signInUrl = `${opts.productUrl}/sign-in`;
  const clerkJsUrl = `/__clerk-js/${opts.clerkJsVersion ?? '5.90.0'}/clerk.browser.js`;
  const clerkClient = createClerkClient({
    publishableKey: opts.publishableKey,
    secretKey: opts.secretKey,
    apiUrl: `${opts.productUrl}${opts.backendApiPath ?? '/__clerk_backend'}`,
  });

  const app = express();
  app.disable('x-powered-by');
  // The satellite's Frontend API and the clerk-js files: the product's, forwarded (nothing from a CDN).
  app.use(fapiPath, forwardTo(opts.productUrl));
  app.use('/__clerk-js', forwardTo(opts.productUrl));
  app.use('/static', express.static(PUBLIC_DIR, { index: false }));
  app.use(
    clerkMiddleware({
      clerkClient,
      publishableKey: opts.publishableKey,
      secretKey: opts.secretKey,
      isSatellite: true,
      proxyUrl,
      signInUrl,
      // A session token is accepted here only if it was made for this origin.
      authorizedParties: [opts.ownUrl],
    }),
  );

  app.get('/', async (req, res, next) => {
    try {
      const language = languageOf(req);
      const words = WORDS[language];
      const auth = getAuth(req);
      let details = '';
      if (auth.userId) {
        const user = await clerkClient.users.getUser(auth.userId);
        const organization = auth.orgId
          ? await clerkClient.organizations.getOrganization({ organizationId: auth.orgId })
          : null;
        details = `
    <dl>
      <dt>${words.userId}</dt><dd data-testid="user-id">${escape(user.id)}</dd>
      <dt>${words.email}</dt><dd data-testid="email">${escape(user.primaryEmailAddress?.emailAddress ?? '')}</dd>
      <dt>${words.organization}</dt><dd data-testid="organization" data-organization-id="${escape(organization?.id ?? '')}">${
        organization ? escape(organization.name) : words.noOrganization
      }</dd>
    </dl>
    <p><button type="button" id="sign-out" disabled>${words.signOut}</button></p>`;
      } else {
        details = `
    <p data-testid="signed-out">${words.signedOut}</p>
    <p><a id="sign-in" data-testid="sign-in" href="${escape(signInUrl)}">${words.signIn}</a></p>`;
      }
      const other: Language = language === 'fr' ? 'en' : 'fr';
      res
        .type('html')
        .set('cache-control', 'no-store')
        .set('content-security-policy', CSP)
        .set('x-content-type-options', 'nosniff')
        .set('referrer-policy', 'strict-origin-when-cross-origin').send(`<!doctype html>
<html lang="${language}">
  <head>
    <meta charset="utf-8">
    <title>${words.title}</title>
    <script defer src="${clerkJsUrl}" crossorigin="anonymous"
      data-clerk-publishable-key="${escape(opts.publishableKey)}"
      data-clerk-proxy-url="${escape(proxyUrl)}"></script>
    <script defer src="/static/page.js"></script>
  </head>
  <body data-user-id="${escape(auth.userId ?? '')}" data-org-id="${escape(auth.orgId ?? '')}" data-sign-in-url="${escape(signInUrl)}">
    <h1>${words.title}</h1>
    <p>${words.intro}</p>${details}
    <p><a data-testid="product-link" href="${escape(opts.productUrl)}/dashboard">${words.product}</a></p>
    <p><a href="/?lang=${other}" lang="${other}">${words.otherLanguage}</a></p>
  </body>
</html>
`);
    } catch (err) {
      next(err);
    }
  });
  return app;
}

/** `?lang=fr|en`, else the browser's preference between the two (`Accept-Language`), else French. */
function languageOf(req: Request): Language {
  const asked = req.query.lang;
  if (asked === 'fr' || asked === 'en') return asked;
  const preferred = req.acceptsLanguages('fr', 'en');
  return preferred === 'en' ? 'en' : 'fr';
}

/** clerk-js runs its timers in a worker made from a blob and styles with inserted `<style>` elements. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
