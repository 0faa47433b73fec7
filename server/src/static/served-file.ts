import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptedEncodings, type Encoding } from './accept-encoding.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Stored, but asked again every time (a 304 when unchanged): the document and unhashed files. */
export const REVALIDATE = 'no-cache';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = /\.(html|js|mjs|css|json|map|md|txt|xml|webmanifest|svg)$/i;
/** Below this, a compressed answer saves less than its headers cost (the threshold @fastify/compress used). */
const MIN_COMPRESSED_SIZE = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

interface Variant {
  encoding: Encoding;
  bytes: Buffer;
  etag: string;
}

/**
 * One static file held in memory with its encodings, so an answer is a buffer write: no file system call,
 * no compression per request. Encodings given (the build's `.br`/`.gz`) are used as they are; a missing
 * one is made once, on first demand, off the event loop, at a quality that takes milliseconds (the
 * build's brotli takes seconds per large file).
 */
export class ServedFile {
  readonly type: string;
  private readonly variants = new Map<Encoding, Promise<Variant | null>>();
  private readonly tag: string;

  constructor(
    private readonly identity: Buffer,
    name: string,
    precompressed: Partial<Record<Exclude<Encoding, 'identity'>, Buffer>> = {},
  ) {
    this.type = TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
    // One tag per content; the encoding is appended since each encoding is a different representation.
    this.tag = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
    this.variants.set('identity', Promise.resolve(this.variant('identity', identity)));
    const compressible = COMPRESSIBLE.test(name) && identity.length >= MIN_COMPRESSED_SIZE;
    for (const encoding of ['br', 'gzip'] as const) {
      const given = precompressed[encoding];
      if (given && given.length < identity.length)
        this.variants.set(encoding, Promise.resolve(this.variant(encoding, given)));
      else if (!compressible) this.variants.set(encoding, Promise.resolve(null));
    }
  }

  /** Answers the request: the best encoding it accepts, a 304 when its ETag is current. */
  async send(req: FastifyRequest, reply: FastifyReply, cacheControl: string) {
    let variant: Variant | null = null;
    for (const encoding of acceptedEncodings(req.headers['accept-encoding'])) {
      variant = await this.encoded(encoding);
      if (variant) break;
    }
    // Identity even when the request refused it: an answer it can decode beats a 406 (RFC 9110 §12.5.3).
    variant ??= (await this.encoded('identity'))!;
    reply.header('cache-control', cacheControl);
    reply.header('vary', 'accept-encoding');
    reply.header('etag', variant.etag);
    if (etagMatches(req.headers['if-none-match'], variant.etag)) return reply.code(304).send();
    reply.header('content-type', this.type);
    if (variant.encoding !== 'identity') reply.header('content-encoding', variant.encoding);
    reply.header('content-length', variant.bytes.length);
    return reply.send(variant.bytes);
  }

  /** The bytes in this encoding, or null when it has none (too small, not text, or not smaller). */
  encoded(encoding: Encoding): Promise<Variant | null> {
    let variant = this.variants.get(encoding);
    if (!variant) {
      variant = compress(this.identity, encoding as Exclude<Encoding, 'identity'>).then((bytes) =>
        bytes.length < this.identity.length ? this.variant(encoding, bytes) : null,
      );
      this.variants.set(encoding, variant);
    }
    return variant;
  }

  private variant(encoding: Encoding, bytes: Buffer): Variant {
    return { bytes, encoding, etag: encoding === 'identity' ? `"${this.tag}"` : `"${this.tag}-${encoding}"` };
  }
}

function compress(bytes: Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(bytes, { level: 6 });
  return brotli(bytes, {
    params: {
      // Quality 6: about 10 % larger than the build's 11, in a fiftieth of the time.
      [constants.BROTLI_PARAM_QUALITY]: 6,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/** `If-None-Match`: a list of tags (weak comparison, as RFC 9110 asks for it) or `*`. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
