import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { AppConfig } from '../lib/app-config.ts';
import { createI18n, followLanguage } from '../lib/i18n/create-i18n.ts';
import type { Language } from '../lib/i18n/languages.ts';
import type { LanguageStore } from '../lib/i18n/language-store.ts';
import { loadTranslations, type Translations } from '../lib/i18n/translations.ts';
import { App } from './App.tsx';
import { StartupErrorScreen } from './StartupErrorScreen.tsx';

/**
 * The app itself (React, the router, Clerk's React SDK, i18next, TanStack Query, the contract): a chunk
 * main.tsx requests at once, at the same time as the config and the words it needs.
 */
export async function startApp(
  container: HTMLElement,
  {
    config,
    languages,
    translations,
  }: { config: AppConfig; languages: LanguageStore; translations: Partial<Record<Language, Translations>> },
): Promise<void> {
  const i18n = await createI18n({
    language: languages.get(),
    production: import.meta.env.PROD,
    translations,
  });
  followLanguage(i18n, languages, loadTranslations);
  createRoot(container).render(
    <StrictMode>
      <App config={config} i18n={i18n} languages={languages} />
    </StrictMode>,
  );
}

export function showStartupError(container: HTMLElement, error: unknown): void {
  createRoot(container).render(<StartupErrorScreen error={error} />);
}
