import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { parseLanguage, languagePathCode } from '../../lib/i18n/languages.ts';
import { useLanguage, useLanguageStore } from '../../lib/i18n/useLanguage.ts';
import { useAuthState, useAuthStateInSync } from '../../state/auth/AuthStateProvider.tsx';
import { Loading } from '../../ui/Loading.tsx';

/**
 * Holds back `children` until the interface speaks the language it will settle in: the browser's choice,
 * else the signed-in organisation's, which is only known once Clerk has loaded (and, for a member with one
 * organisation, once it has been made active). Without it a page drew in the starting language and
 * switched a moment later. Computed from the auth state itself, not from the language store, which
 * LanguageSync updates one effect later.
 *
 * A switch the person asked for (the toggle) keeps the page, and what is typed in it, in place while the
 * other language's words load; so does a moment when Clerk is switching sessions (its own components stay).
 */
export function LanguageReady({ children, fallback }: { children: ReactNode; fallback?: ReactNode }) {
  useLanguage(); // re-render on an explicit choice
  const store = useLanguageStore();
  const { i18n } = useTranslation();
  const inSync = useAuthStateInSync();
  const organizationLanguage = parseLanguage(useAuthState().organization?.publicMetadata.uiLanguage);
  const target = languagePathCode(store.effectiveFor(organizationLanguage));
  const [failed, setFailed] = useState<string | null>(null);
  const [shown, setShown] = useState(false);

  useEffect(() => {
    const onFailed = (language: string) => setFailed(language);
    i18n.on('failedLoading', onFailed);
    return () => i18n.off('failedLoading', onFailed);
  }, [i18n]);

  // If the words cannot be loaded, the interface stays in the language it speaks (followLanguage).
  const speaksTarget = i18n.language === target || failed === target;
  const ready = (inSync || shown) && (speaksTarget || (shown && store.hasChoice()));
  // Latched while rendering (React's pattern for state derived from a change), not in an effect.
  if (ready && !shown) setShown(true);

  if (ready) return children;
  return fallback === undefined ? <Loading testId="language-loading" /> : fallback;
}
