import { queryOptions } from '@tanstack/react-query';
import type { Language } from '../../lib/i18n/languages.ts';
import { fetchHelpPage } from './api/get-help-page.ts';

/** Help pages are the same for everyone, so they are cached by language and name only. */
export const helpPageKey = (language: Language, name: string) => ['help', language, name] as const;

export function helpPageQuery(language: Language, name: string) {
  return queryOptions({
    queryKey: helpPageKey(language, name),
    // Failures come back as values (see fetchHelpPage): a missing page is an answer, not an error.
    queryFn: ({ signal }) => fetchHelpPage(language, name, { signal }),
    // A static file of this build: it cannot change while the page is open.
    staleTime: Infinity,
  });
}
