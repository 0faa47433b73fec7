import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliIo } from '../../src/cli/run-cli.ts';
import type { Backend, Store } from './backends.ts';
import { PUBLIC_URL } from './harness.ts';
import { migratedPgliteDir } from './pglite-template.ts';

/**
 * `npm run identity -- …` in-process: exit status and what went to stdout and stderr; `openers` hand the
 * command the test's own database instead of the one `env` names.
 */
export async function cli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  openers: Omit<CliIo, 'env' | 'out' | 'err'> = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l), ...openers });
  return { status, out: out.join('\n'), err: err.join('\n') };
}

/**
 * A store laid out as the server keeps it, and the environment that points the command line at it:
 * DATA_DIR holding the PGlite directory `pglite`, or DATABASE_URL with the test's schema. PostgreSQL's
 * store starts migrated; PGlite's directory starts empty unless `migrated`.
 */
export async function cliStore(
  backend: Backend,
  { migrated = false }: { migrated?: boolean } = {},
): Promise<{ dataDir: string; store: Store; env: NodeJS.ProcessEnv; dispose(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'identity-cli-'));
  let store: Store;
  let env: NodeJS.ProcessEnv;
  if (backend.name === 'pglite') {
    if (migrated) await migratedPgliteDir(join(dataDir, 'pglite'));
    store = { options: { dataDir: join(dataDir, 'pglite') }, dispose: async () => {} };
    env = { DATA_DIR: dataDir, PUBLIC_URL };
  } else {
    store = await backend.createStore();
    const { url, schema } = store.options as { url: string; schema: string };
    const withSchema = new URL(url);
    withSchema.searchParams.set('options', `-c search_path=${schema}`);
    env = { DATA_DIR: dataDir, PUBLIC_URL, DATABASE_URL: withSchema.toString() };
  }
  return {
    dataDir,
    store,
    env,
    async dispose() {
      await store.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
