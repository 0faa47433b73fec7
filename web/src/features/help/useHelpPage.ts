import { useQuery } from '@tanstack/react-query';
import { useLanguage } from '../../lib/i18n/useLanguage.ts';
import type { HelpPageResult } from './api/get-help-page.ts';
import { helpPageQuery } from './help-page-query.ts';

export type HelpPageState = { status: 'loading' } | HelpPageResult;

/**
 * One help page in the interface language. Cached by language and name, so a language switch shows
 * "loading" (or the other language's cached copy) at once and never the previous language's page.
 */
export function useHelpPage(name: string): { state: HelpPageState; retry: () => void } {
  const { language } = useLanguage();
  const query = useQuery(helpPageQuery(language, name));
  const retry = () => void query.refetch();
  // A retry after a failure shows "loading" again rather than the failure it is replacing.
  if (!query.data || (query.data.status === 'error' && query.isFetching)) {
    return { state: { status: 'loading' }, retry };
  }
  return { state: query.data, retry };
}
