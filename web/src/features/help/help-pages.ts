/** Every help page, in the order the index lists them; each is `/assets/i18n/{lang}/<name>.md` in EN and FR. */
export const HELP_PAGES = [
  'getting-started',
  'organisations-and-roles',
  'virtual-security-officer',
  'compliance',
  'companion',
  'diagram',
  'passport',
  'languages',
  'api-access',
] as const;
export type HelpPageName = (typeof HELP_PAGES)[number];

/** The pages about the product as a whole, listed before the modules' own pages. */
export const GENERAL_HELP_PAGES: readonly HelpPageName[] = [
  'getting-started',
  'organisations-and-roles',
  'languages',
  'api-access',
];

/** The index and the not-found page link here. */
export const HELP_INDEX_PATH = '/help';

export const helpPagePath = (name: string): string => `${HELP_INDEX_PATH}/${name}`;

/**
 * A plain slug: lowercase letters and digits in hyphen-separated words. Anything else (dots, slashes,
 * percent-escapes, uppercase) is refused before a request is built, so a crafted name can never reach
 * another file or path on the server.
 */
const PLAIN_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const isPlainSlug = (name: string): boolean => name.length <= 64 && PLAIN_SLUG.test(name);

export const isHelpPageName = (name: string): name is HelpPageName =>
  (HELP_PAGES as readonly string[]).includes(name);
