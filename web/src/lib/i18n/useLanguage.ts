import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Language } from './languages.ts';
import type { LanguageStore } from './language-store.ts';

export const LanguageStoreContext = createContext<LanguageStore | null>(null);

export function useLanguageStore(): LanguageStore {
  const store = useContext(LanguageStoreContext);
  if (!store) throw new Error('useLanguage must be used inside <LanguageStoreContext>.');
  return store;
}

/** The interface language (FR or EN) and the way to choose another one. */
export function useLanguage(): { language: Language; choose: (language: Language) => void } {
  const store = useLanguageStore();
  const language = useSyncExternalStore(store.subscribe, store.get);
  return { language, choose: store.choose };
}
