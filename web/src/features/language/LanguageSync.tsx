import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { languageFromSearch } from '../../lib/i18n/language-store.ts';
import { parseLanguage } from '../../lib/i18n/languages.ts';
import { useLanguageStore } from '../../lib/i18n/useLanguage.ts';
import { useAuthState, useAuthStateInSync } from '../../state/auth/AuthStateProvider.tsx';

/**
 * Feeds the language store from the page: `?lang=` on any URL the router reaches is an explicit choice,
 * and the active organisation's `uiLanguage` is the starting language for its members.
 */
export function LanguageSync() {
  const store = useLanguageStore();
  const { search } = useLocation();
  const uiLanguage = useAuthState().organization?.publicMetadata.uiLanguage;
  // Before Clerk has loaded (and while it switches sessions) "no organisation" means "not known yet": it
  // must not replace the remembered organisation language the page started in.
  const inSync = useAuthStateInSync();

  useEffect(() => {
    const fromUrl = languageFromSearch(search);
    if (fromUrl) store.choose(fromUrl);
  }, [store, search]);

  useEffect(() => {
    if (inSync) store.setOrganizationLanguage(parseLanguage(uiLanguage));
  }, [store, uiLanguage, inSync]);

  return null;
}
