import type { RequestHandler } from 'express';

/** Headers of one hop only (RFC 9110 §7.6.1), and those the forwarding request computes itself. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
  // fetch asks for and decodes compression itself; the browser gets the decoded body.
  'accept-encoding',
]);
const NOT_ANSWERED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  'content-length',
  'set-cookie',
]);
/** Frontend API bodies are small forms and JSON; anything bigger is refused before it is forwarded. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Forwards every request under the path it is mounted on, unchanged, to the same path on `target` (the
 * product's origin): method, path, query, body, cookies, `Origin`, `User-Agent`, and the browser's address
 * as `X-Forwarded-For`. The answer comes back as it is, redirects included (not followed) and every
 * `Set-Cookie` (they carry no `Domain`, so the browser keeps them for this origin).
 */
export function forwardTo(target: string): RequestHandler {
  return async (req, res, next) => {
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          res.status(413).end();
          return;
        }
        chunks.push(chunk);
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined || NOT_FORWARDED.has(name)) continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const forwardedFor = req.headers['x-forwarded-for'];
      const address = req.socket.remoteAddress ?? '';
      headers.set('x-forwarded-for', forwardedFor ? `${String(forwardedFor)}, ${address}` : address);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(`${target}${req.originalUrl}`, {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
        redirect: 'manual',
      });
      res.status(answer.status);
      answer.headers.forEach((value, name) => {
        if (!NOT_ANSWERED.has(name)) res.setHeader(name, value);
      });
      const cookies = answer.headers.getSetCookie();
      if (cookies.length > 0) res.setHeader('set-cookie', cookies);
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch (err) {
      next(err);
    }
  };
}
