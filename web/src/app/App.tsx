import { QueryClientProvider } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router/dom';
import type { AppConfig } from '../lib/app-config.ts';
import type { LanguageStore } from '../lib/i18n/language-store.ts';
import { createQueryClient } from '../lib/query/query-client.ts';
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
  // One cache for the lifetime of the page; created in state so a re-render never replaces it.
  const [queryClient] = useState(createQueryClient);
  return (
    <AppConfigProvider config={config}>
      <LanguageStoreContext value={languages}>
        <I18nextProvider i18n={i18n}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </I18nextProvider>
      </LanguageStoreContext>
    </AppConfigProvider>
  );
}
