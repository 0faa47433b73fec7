import { helpPagePath, isPlainSlug } from '../help-pages.ts';

export type LinkTarget =
  /** A page of this app: navigate with the router, no reload. */
  | { kind: 'app'; to: string }
  /** Another site (or mail): opens apart, with no opener and no referrer. */
  | { kind: 'external'; href: string }
  /** An anchor or a relative address: an ordinary link. */
  | { kind: 'plain'; href: string }
  /** No address left (react-markdown's URL sanitising emptied it, e.g. `javascript:`): not a link. */
  | { kind: 'none' };

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** `getting-started.md`, `./api-access.md#curl`: how help pages name each other in plain markdown. */
const HELP_FILE = /^(?:\.\/)?([^/?#]+)\.md(#.*)?$/;

/** Where a link in help markdown leads, after react-markdown's URL sanitising. */
export function linkTarget(href: string | undefined): LinkTarget {
  const value = href?.trim() ?? '';
  if (!value) return { kind: 'none' };
  if (value.startsWith('/') && !value.startsWith('//')) return { kind: 'app', to: value };
  const helpFile = HELP_FILE.exec(value);
  if (helpFile && isPlainSlug(helpFile[1]!))
    return { kind: 'app', to: helpPagePath(helpFile[1]!) + (helpFile[2] ?? '') };
  if (value.startsWith('//') || HAS_SCHEME.test(value)) return { kind: 'external', href: value };
  return { kind: 'plain', href: value };
}
