import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';

export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  pglite: string;
  /** `SHOW server_version`, or null when PostgreSQL is not part of the run. */
  postgres: string | null;
}

export function machine(postgres: string | null): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    ramGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    pglite: packageVersion('@electric-sql/pglite'),
    postgres,
  };
}

/** A package's version from its package.json, which PGlite does not export: found above its entry point. */
function packageVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version: string;
      };
      if (pkg.name === name) return pkg.version;
    } catch {
      // No package.json here.
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}
