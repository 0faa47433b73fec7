import type { LocalizationResource } from '@clerk/types';

type Words = { readonly [key: string]: unknown };

const isWords = (value: unknown): value is Words => typeof value === 'object' && value !== null;

/**
 * `base` with `words` laid over it, nested objects merged key by key; a new object, `base` (a module
 * export of @clerk/localizations) stays as it is. An undefined word keeps the base's: frFR itself marks
 * what it lacks with undefined, which would blank clerk-js's English default if passed on.
 */
export function mergeWords(base: LocalizationResource, words: LocalizationResource): LocalizationResource {
  return merge(base, words) as LocalizationResource;
}

function merge(base: Words, words: Words): Words {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, word] of Object.entries(words)) {
    if (word === undefined) continue;
    const below = merged[key];
    merged[key] = isWords(word) && isWords(below) ? merge(below, word) : word;
  }
  return merged;
}
