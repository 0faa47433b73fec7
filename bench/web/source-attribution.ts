import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { decode } from '@jridgewell/sourcemap-codec';

interface RawSourceMap {
  sources: string[];
  sourceRoot?: string;
  mappings: string;
}

/** Raw bytes of a built file per original source (absolute path), `null` for bytes mapped to none. */
export type BytesBySource = Map<string | null, number>;

const SOURCE_MAP_COMMENT = /\n?\/\/# sourceMappingURL=\S+\s*$/;

/**
 * Reads `file` and its `file.map` and attributes each byte of the code to the source its mapping
 * segment points at, as source-map-explorer does: a segment owns the bytes from its column to the next
 * segment's. The trailing sourceMappingURL comment is left out, since the shipped build has none.
 */
export function bytesBySource(file: string): { code: string; bytes: BytesBySource } {
  const code = readFileSync(file, 'utf8').replace(SOURCE_MAP_COMMENT, '');
  // The bundler's own runtime chunk (dynamic import support) comes from no source and has no map.
  if (!existsSync(`${file}.map`)) return { code, bytes: new Map([[null, Buffer.byteLength(code)]]) };
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as RawSourceMap;
  const base = resolve(dirname(file), map.sourceRoot ?? '');
  const sources = map.sources.map((source) => resolve(base, source));
  const bytes: BytesBySource = new Map();
  const add = (source: string | null, n: number) => {
    if (n > 0) bytes.set(source, (bytes.get(source) ?? 0) + n);
  };

  const lines = code.split('\n');
  const mappings = decode(map.mappings);
  lines.forEach((line, index) => {
    // Columns count UTF-16 units; sizes are in UTF-8 bytes.
    const size =
      Buffer.byteLength(line) !== line.length
        ? (from: number, to?: number) => Buffer.byteLength(line.slice(from, to))
        : (from: number, to?: number) => (to ?? line.length) - from;
    const segments = [...(mappings[index] ?? [])].sort((a, b) => a[0] - b[0]);
    add(null, size(0, segments[0]?.[0] ?? line.length));
    segments.forEach((segment, i) => {
      const to = segments[i + 1]?.[0];
      add(segment.length >= 4 ? sources[segment[1]!]! : null, size(segment[0], to));
    });
    if (index < lines.length - 1) add(null, 1); // the newline
  });
  return { code, bytes };
}
