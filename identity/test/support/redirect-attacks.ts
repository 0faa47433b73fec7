/**
 * Open-redirect attempts against a product on http://localhost:3000 (spec §5: redirect URLs must be on
 * allowed origins, and only http(s) may be navigated to). Every one must be refused, or replaced by the
 * default landing page, wherever a redirect URL is accepted.
 */
export const OFF_ORIGIN_REDIRECTS: [label: string, url: string][] = [
  ['another origin', 'https://evil.test/sign-in'],
  ['another origin over http', 'http://evil.test/'],
  ['the same host on another port', 'http://localhost:3001/dashboard'],
  ['the same host without the port', 'http://localhost/dashboard'],
  ['the same host over https', 'https://localhost:3000/dashboard'],
  ['the loopback address instead of the name', 'http://127.0.0.1:3000/dashboard'],
  ['IPv6 loopback', 'http://[::1]:3000/'],
  ['a look-alike host (product origin as a prefix)', 'https://localhost:3000.evil.test/'],
  ['a look-alike host (product host as a label)', 'http://localhost.evil.test:3000/'],
  ['a look-alike host with a trailing dot', 'http://localhost.:3000/'],
  ['a homograph host (Cyrillic o)', 'http://l\u043ecalhost:3000/'],
  ['the product origin as userinfo', 'http://localhost:3000@evil.test/'],
  ['the product origin as userinfo with a password', 'http://localhost:3000:pw@evil.test/'],
  ['the product origin as encoded userinfo', 'http://localhost%3A3000@evil.test/'],
  ['the product origin after a backslash', 'http://evil.test\\@localhost:3000/'],
  ['the product origin in the fragment', 'http://evil.test#@localhost:3000/'],
  ['the product origin in the query', 'http://evil.test?@localhost:3000/'],
  ['protocol-relative', '//evil.test/path'],
  ['protocol-relative with three slashes', '///evil.test/path'],
  ['slash backslash', '/\\evil.test/path'],
  ['backslash slash', '\\/evil.test/path'],
  ['two backslashes', '\\\\evil.test/path'],
  ['protocol-relative after leading whitespace', '  //evil.test/path'],
  ['protocol-relative after a tab', '\t//evil.test/path'],
  ['protocol-relative with a tab inside', '/\t/evil.test/path'],
  ['scheme without slashes (another scheme than the page)', 'https:evil.test'],
  ['javascript:', 'javascript:alert(1)'],
  ['javascript: in mixed case', 'JaVaScRiPt:alert(document.domain)'],
  ['javascript: after whitespace', ' javascript:alert(1)'],
  ['javascript: after a control character', '\u0001javascript:alert(1)'],
  ['javascript: split by a tab', 'java\tscript:alert(1)'],
  ['javascript: split by a newline', 'java\nscript:alert(1)'],
  ['javascript: shaped like the product URL', 'javascript://localhost:3000/%0aalert(1)'],
  ['data:', 'data:text/html,<script>alert(1)</script>'],
  ['data: base64', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
  ['vbscript:', 'vbscript:msgbox(1)'],
  ['file:', 'file:///etc/passwd'],
  ['blob: of the product origin', 'blob:http://localhost:3000/5f4dcc3b'],
  ['ftp: on the product host', 'ftp://localhost:3000/'],
  ['ws: on the product host', 'ws://localhost:3000/'],
];

/**
 * Values that look dangerous but are paths on the product's own origin once parsed as a browser parses
 * them (percent-encoding keeps a scheme or a host inside the path). They may pass, but must land on the
 * product's origin.
 */
export const SAME_ORIGIN_DISGUISES: string[] = [
  'javascript%3Aalert(1)',
  '%2F%2Fevil.test/path',
  '/%5Cevil.test/path',
  '%6Aavascript:alert(1)',
  'http:evil.test',
  '/dashboard?next=https://evil.test/',
  '/ok\r\nSet-Cookie: pwned=1',
];

/**
 * Look-alikes of the popup flow's landing page, `https://accounts.localhost:3000/popup-callback` (the
 * Account Portal origin clerk-js derives from `clerk.localhost:3000`), which social sign-in and sign-up
 * accept: every other host, scheme, port, path, userinfo, and a `return_url` off the allowed origins.
 */
export const POPUP_CALLBACK_DISGUISES: [label: string, url: string][] = [
  ['another accounts. host', 'https://accounts.evil.com/popup-callback'],
  ['the portal host as a label of another', 'https://accounts.localhost.evil.com/popup-callback'],
  [
    'the portal origin as a prefix of another host',
    'https://accounts.localhost:3000.evil.com/popup-callback',
  ],
  ['a subdomain of the portal host', 'https://evil.accounts.localhost:3000/popup-callback'],
  // (http://accounts.localhost:3000 is a subdomain of the product's origin, which every redirect may name.)
  ['the portal over http, on the https port', 'http://accounts.localhost:443/popup-callback'],
  ['the portal over http, without a port', 'http://accounts.localhost/popup-callback'],
  ['another accounts. host over http', 'http://accounts.evil.com/popup-callback'],
  ['the portal without its port', 'https://accounts.localhost/popup-callback'],
  ['the portal on another port', 'https://accounts.localhost:3001/popup-callback'],
  ['the frontend API host itself', 'https://clerk.localhost:3000/popup-callback'],
  ['another path on the portal', 'https://accounts.localhost:3000/sign-in'],
  ['the root of the portal', 'https://accounts.localhost:3000/'],
  ['the path with a trailing slash', 'https://accounts.localhost:3000/popup-callback/'],
  ['the path in another case', 'https://accounts.localhost:3000/Popup-Callback'],
  ['a path that leaves the page', 'https://accounts.localhost:3000/popup-callback/../sign-in'],
  ['userinfo before the portal', 'https://user@accounts.localhost:3000/popup-callback'],
  ['the portal as userinfo', 'https://accounts.localhost:3000@evil.test/popup-callback'],
  ['the portal with another scheme', 'wss://accounts.localhost:3000/popup-callback'],
  [
    'return_url off the allowed origins',
    'https://accounts.localhost:3000/popup-callback?return_url=https%3A%2F%2Fevil.test%2F',
  ],
  [
    'return_url javascript:',
    'https://accounts.localhost:3000/popup-callback?return_url=javascript%3Aalert(1)',
  ],
  [
    'return_url protocol-relative',
    'https://accounts.localhost:3000/popup-callback?return_url=%2F%2Fevil.test%2F',
  ],
  ['return_url relative', 'https://accounts.localhost:3000/popup-callback?return_url=%2Fdashboard'],
  [
    'return_url the portal itself',
    'https://accounts.localhost:3000/popup-callback?return_url=https%3A%2F%2Faccounts.localhost%3A3000%2Fpopup-callback',
  ],
  [
    'return_url twice',
    'https://accounts.localhost:3000/popup-callback?return_url=http%3A%2F%2Flocalhost%3A3000%2F&return_url=https%3A%2F%2Fevil.test%2F',
  ],
  [
    'a session named by the caller',
    'https://accounts.localhost:3000/popup-callback?__clerk_created_session=sess_1',
  ],
];
