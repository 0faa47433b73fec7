// How our TypeScript is bundled into plain JavaScript for Node (the test processes, scripts/test-bundle.mjs,
// and `npm start`, scripts/start-server.mjs), so that a process does not load the provider's ≈ 490 modules one
// by one through tsx's loader hooks. What is bundled is our own TypeScript (the workspaces, `@app/*`
// included); npm packages stay external and load from node_modules as before.
//
// Behaviour kept as under tsx:
// - `import.meta.url` in each module is the URL of its own source file (modules find their migrations,
//   templates and the web build through it), not the bundle's;
// - a package our code imports resolves from the importing source file: packages hoisted to the root
//   node_modules are imported by name (bundles live under the root's node_modules/.cache), one installed
//   only in a workspace's node_modules by its path;
// - stack traces point at the TypeScript sources (linked source maps; run with source maps enabled).
import { isBuiltin } from 'node:module';
import { join, sep } from 'node:path';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

const WORKSPACE_PACKAGE = /^@app\//;

/** esbuild options every bundle of our sources shares. @param {string} root */
export function bundleOptions(root) {
  return /** @type {const} */ ({
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'silent',
    plugins: [sourcesAsUnderTsx(root)],
  });
}

/** esbuild's errors as a few readable lines. @param {unknown} error */
export function buildErrors(error) {
  const errors = /** @type {{ errors?: { text: string, location?: { file: string, line: number } }[] }} */ (
    error
  ).errors;
  if (!errors) return `  ${String(error)}`;
  return errors
    .slice(0, 5)
    .map((e) => `  ${e.location ? `${e.location.file}:${e.location.line} ` : ''}${e.text}`)
    .join('\n');
}

/** @param {string} root */
function sourcesAsUnderTsx(root) {
  const rootModules = join(root, 'node_modules') + sep;
  return {
    name: 'sources-as-under-tsx',
    /** @param {import('esbuild').PluginBuild} b */
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'inner' || WORKSPACE_PACKAGE.test(args.path)) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        const found = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'inner',
        });
        if (found.errors.length > 0) return { errors: found.errors };
        // Hoisted: the bundle (under the root's node_modules/.cache) finds it by name, as Node would.
        if (found.path.startsWith(rootModules)) return { path: args.path, external: true };
        return { path: found.path, external: true };
      });
      b.onLoad({ filter: /\.(ts|tsx|mts)$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const text = await readFile(args.path, 'utf8');
        const contents = text.includes('import.meta.url')
          ? text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          : text;
        return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}
