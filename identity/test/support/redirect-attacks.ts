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
