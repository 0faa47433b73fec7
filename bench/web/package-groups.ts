/** The groups the issue asks the bundle to be split into, in the order the report lists them. */
export const GROUPS = ['our code', 'React', 'Clerk React SDK', 'other libraries', 'bundler glue'] as const;
export type Group = (typeof GROUPS)[number];

// React itself and the router built on it. use-sync-external-store is React's own shim (swr pulls it in).
const REACT = new Set([
  'react',
  'react-dom',
  'scheduler',
  'react-router',
  'react-router-dom',
  '@remix-run/router',
  'cookie',
  'set-cookie-parser',
  'use-sync-external-store',
]);

// Every @clerk/* package (clerk-react, shared, types, localizations) and what @clerk/shared alone pulls in.
const CLERK_SDK_DEPENDENCIES = new Set(['swr', 'dequal', 'js-cookie', 'std-env', 'glob-to-regexp']);

/** The npm package a source path comes from (the innermost node_modules), or null for our own files. */
export function packageOf(sourcePath: string): string | null {
  const at = sourcePath.lastIndexOf('node_modules/');
  if (at < 0) return null;
  const [scopeOrName, name] = sourcePath.slice(at + 'node_modules/'.length).split('/');
  return scopeOrName!.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName!;
}

/**
 * `sourcePath` is absolute, or null for bytes the source map ties to no source (the bundler's runtime
 * helpers and the separators between modules).
 */
export function groupOf(sourcePath: string | null, webSrc: string): Group {
  if (sourcePath === null) return 'bundler glue';
  const pkg = packageOf(sourcePath);
  if (pkg === null) return sourcePath.startsWith(webSrc) ? 'our code' : 'bundler glue';
  if (REACT.has(pkg)) return 'React';
  if (pkg.startsWith('@clerk/') || CLERK_SDK_DEPENDENCIES.has(pkg)) return 'Clerk React SDK';
  return 'other libraries';
}
