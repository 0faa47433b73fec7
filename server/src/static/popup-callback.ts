import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  accountsPortalOrigin,
  isAllowedRedirect,
  POPUP_CALLBACK_PATH,
  type IdentityConfig,
} from '@app/identity';

/** The page's script, a file of its own: the page's CSP allows no inline script. */
export const POPUP_CALLBACK_SCRIPT_PATH = `${POPUP_CALLBACK_PATH}.js`;

const SESSION_ID = /^sess_[A-Za-z0-9]{1,64}$/;

/**
 * Posts the page's message (the JSON block the server wrote, never the URL: the server checked it) to the
 * window that opened the popup, once per origin the opener may be on (the browser drops every copy whose
 * origin is not the opener's), then closes the popup. Opened any other way, it does nothing.
 */
const SCRIPT = `'use strict';
(function () {
  var data = JSON.parse(document.getElementById('popup-message').textContent);
  if (!data.message || !window.opener) return;
  for (var i = 0; i < data.targets.length; i++) window.opener.postMessage(data.message, data.targets[i]);
  window.close();
})();
`;

/** Only this page's own script, nothing else: no styles, images, frames, forms or connections. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // The URL can carry a development-browser token (clerk-js adds it with development keys).
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
  // No Cross-Origin-Opener-Policy: the page must keep `window.opener`, a window of another origin.
};

type PopupMessage = { session: string } | { return_url: string } | null;

export interface PopupCallbackOptions {
  identityConfig: IdentityConfig;
}

/**
 * clerk-js's popup flow (`authenticateWithPopup`, `<SignIn oauthFlow="popup"/>`) ends on
 * `https://accounts.<domain>/popup-callback`, the Account Portal origin it derives from the publishable
 * key, and accepts the result only in a `postMessage` from that origin: `{session}` (the opener makes it
 * active) or `{return_url}` (the opener goes on there, to its SSO callback). A deployment routes that host to
 * this server (README, "Popup sign-in"); a request for it, by its Host (or X-Forwarded-Host from a trusted
 * proxy), gets this page and its script and nothing else of the product. It runs before the product's
 * security headers, whose CSP and opener policy are not the page's.
 *
 * The Frontend API sends the popup here with `__clerk_created_session` once the attempt completed, or
 * with the `return_url` clerk-js gave (checked again here: an allowed origin of the product, absolute).
 */
export function registerPopupCallback(app: FastifyInstance, opts: PopupCallbackOptions) {
  const config = opts.identityConfig;
  const portalHost = new URL(accountsPortalOrigin(config.frontendApiHost)).host;
  // The portal host is normally a host of its own; configured as the product's, it only adds the page.
  const portalOnly = portalHost !== new URL(config.publicUrl).host;
  const targets = [...new Set([config.publicUrl, ...config.allowedOrigins].map((o) => new URL(o).origin))];

  app.addHook('onRequest', async (req, reply) => {
    if (requestHost(req) !== portalHost) return;
    const path = req.url.split('?')[0];
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (read && path === POPUP_CALLBACK_PATH) {
      const message = popupMessage(req, config);
      return send(reply, 'text/html; charset=utf-8', page({ message, targets: message ? targets : [] }));
    }
    if (read && path === POPUP_CALLBACK_SCRIPT_PATH) {
      return send(reply, 'text/javascript; charset=utf-8', SCRIPT);
    }
    if (portalOnly) return send(reply.code(404), 'text/plain; charset=utf-8', 'Not found\n');
  });
}

/** The Host the browser asked for (lower case, without https's default port). */
function requestHost(req: FastifyRequest): string {
  return req.host.toLowerCase().replace(/:443$/, '');
}

function send(reply: FastifyReply, contentType: string, body: string): FastifyReply {
  return reply.headers(PAGE_HEADERS).type(contentType).send(body);
}

/** What the page may tell the opener, from its query: a session id, or an allowed absolute return URL. */
function popupMessage(req: FastifyRequest, config: IdentityConfig): PopupMessage {
  const query = req.query as Record<string, string | string[] | undefined>;
  const one = (name: string) => {
    const value = query[name];
    return typeof value === 'string' ? value : undefined;
  };
  const session = one('__clerk_created_session');
  if (session !== undefined) return SESSION_ID.test(session) ? { session } : null;
  const returnUrl = one('return_url');
  if (returnUrl === undefined || !URL.canParse(returnUrl) || !isAllowedRedirect(returnUrl, config))
    return null;
  return { return_url: returnUrl };
}

function page(data: { message: PopupMessage; targets: string[] }): string {
  // JSON in an inert <script type="application/json">: "<" escaped so no value can close the element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex">
<title>Signing in</title>
<script type="application/json" id="popup-message">${json}</script>
<script src="${POPUP_CALLBACK_SCRIPT_PATH}"></script>
</head>
<body>
<p>You can close this window.</p>
</body>
</html>
`;
}
