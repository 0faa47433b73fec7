import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router/dom';
import type { AppConfig } from '../lib/app-config.ts';
import type { LanguageStore } from '../lib/i18n/language-store.ts';
import { LanguageStoreContext } from '../lib/i18n/useLanguage.ts';
import { AppConfigProvider } from './AppConfigContext.tsx';
import { router } from './router.tsx';

export function App({
  config,
  i18n,
  languages,
}: {
  config: AppConfig;
  i18n: i18n;
  languages: LanguageStore;
}) {
  return (
    <AppConfigProvider config={config}>
      <LanguageStoreContext value={languages}>
        <I18nextProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </LanguageStoreContext>
    </AppConfigProvider>
  );
}
