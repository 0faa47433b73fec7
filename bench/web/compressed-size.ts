import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

export const ZERO: Sizes = { raw: 0, gzip: 0, brotli: 0 };

/** gzip -9 and brotli -11: what a server or CDN precompressing static files would send. */
export function compressedSizes(content: Buffer): Sizes {
  return {
    raw: content.length,
    gzip: gzipSync(content, { level: 9 }).length,
    brotli: brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }).length,
  };
}

export function addSizes(a: Sizes, b: Sizes): Sizes {
  return { raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli };
}

/** A part of a file: its raw bytes exactly, its compressed bytes as the same share of the file's. */
export function shareOf(file: Sizes, rawBytes: number): Sizes {
  const share = file.raw === 0 ? 0 : rawBytes / file.raw;
  return { raw: rawBytes, gzip: file.gzip * share, brotli: file.brotli * share };
}
