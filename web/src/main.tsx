import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { loadClerkLocalization } from './app/clerk-localization.ts';
import { StartupErrorScreen } from './app/StartupErrorScreen.tsx';
import { loadAppConfig } from './lib/app-config.ts';
import { keepOwnDevBrowserToken } from './lib/dev-browser-token.ts';
import { createI18n, followLanguage } from './lib/i18n/create-i18n.ts';
import { browserStorage, createLanguageStore, languageFromSearch } from './lib/i18n/language-store.ts';
import './app/styles.css';

async function start(): Promise<void> {
  // Before clerk-js loads: it would take a development-browser token from the URL over the browser's own.
  keepOwnDevBrowserToken();
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element.');
  const root = createRoot(container);

  const languages = createLanguageStore(browserStorage());
  // Read before the first render so a shared `?lang=` link never flashes the other language.
  const fromUrl = languageFromSearch(window.location.search);
  if (fromUrl) languages.choose(fromUrl);

  // ClerkProvider cannot be created without the publishable key and clerk-js URL, and no screen can be
  // shown without its words, so nothing renders before both have loaded.
  try {
    const [config, i18n] = await Promise.all([
      loadAppConfig(),
      createI18n({ language: languages.get(), production: import.meta.env.PROD }),
      // Clerk's words for this language are in their own chunk; Clerk must not render without them.
      loadClerkLocalization(languages.get()),
    ]);
    followLanguage(i18n, languages);
    root.render(
      <StrictMode>
        <App config={config} i18n={i18n} languages={languages} />
      </StrictMode>,
    );
  } catch (error) {
    console.error(error);
    root.render(<StartupErrorScreen error={error} />);
  }
}

void start();
