import { CLERK_QUERY, FAPI, type Browser, type FapiResponse, type Harness } from './harness.ts';

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** The smallest GIF. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A multipart/form-data body with one file part, as a browser builds it for `FormData`. */
export function multipartBody(
  parts: { name: string; filename?: string; type?: string; data: Buffer | string }[],
): { payload: Buffer; contentType: string } {
  const boundary = `----identitytest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.filename
      ? `form-data; name="${p.name}"; filename="${p.filename}"`
      : `form-data; name="${p.name}"`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`;
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export type ImageBody = { file: Buffer; type: string; filename?: string } | { raw: string | Buffer };

/**
 * An image upload as clerk-js sends it (`setLogo`, `setProfileImage`): POST (+ `_method`) with a
 * multipart body for a File, or a raw octet-stream body for a string.
 */
export async function uploadImage(
  h: Harness,
  browser: Browser,
  path: string,
  body: ImageBody,
  method: 'POST' | 'PUT' = 'POST',
): Promise<FapiResponse> {
  const search = new URLSearchParams({ ...CLERK_QUERY, ...(method === 'POST' ? {} : { _method: method }) });
  const headers: Record<string, string> = {
    origin: 'http://localhost:3000',
    cookie: [...browser.jar].map(([k, v]) => `${k}=${v}`).join('; '),
  };
  let payload: Buffer | string;
  if ('raw' in body) {
    headers['content-type'] = 'application/octet-stream';
    payload = body.raw;
  } else {
    const built = multipartBody([
      { name: 'file', filename: body.filename ?? 'image', type: body.type, data: body.file },
    ]);
    headers['content-type'] = built.contentType;
    payload = built.payload;
  }
  const res = await h.app.inject({
    method: 'POST',
    url: `${FAPI}/v1${path}?${search}`,
    headers,
    payload,
    remoteAddress: browser.ip,
  });
  return { status: res.statusCode, headers: res.headers, body: res.json(), setCookies: new Map() };
}
