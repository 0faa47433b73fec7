import { useCallback, useEffect, useState } from 'react';
import { useLanguage } from '../../lib/i18n/useLanguage.ts';
import { fetchHelpPage, type HelpPageResult } from './api/get-help-page.ts';

export type HelpPageState = { status: 'loading' } | HelpPageResult;

/**
 * One help page in the interface language, fetched again whenever the language (or the page) changes.
 * Results are keyed by language, name and attempt so a switch shows "loading" at once and a late answer
 * for the previous language is never shown.
 */
export function useHelpPage(name: string): { state: HelpPageState; retry: () => void } {
  const { language } = useLanguage();
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ key: string; outcome: HelpPageResult } | null>(null);
  const key = `${language}/${name}#${attempt}`;

  useEffect(() => {
    const controller = new AbortController();
    fetchHelpPage(language, name, { signal: controller.signal }).then(
      (outcome) => {
        if (!controller.signal.aborted) setResult({ key, outcome });
      },
      () => {
        // Only an abort rejects: the page or the language changed and a newer request is under way.
      },
    );
    return () => controller.abort();
  }, [language, name, key]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state: result?.key === key ? result.outcome : { status: 'loading' }, retry };
}
