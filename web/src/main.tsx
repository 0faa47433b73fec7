import { loadClerkLocalization } from './app/clerk-localization-loader.ts';
import { loadAppConfig } from './lib/app-config.ts';
import { preloadClerkRequests, startClerkJs } from './lib/clerk-preload.ts';
import { installCaptcha } from './identity-provider/captcha/install-captcha.ts';
import { installOfflineStripe } from './identity-provider/offline-stripe/install-offline-stripe.ts';
import { keepOwnDevBrowserToken } from './lib/dev-browser-token.ts';
import { keepLanguageCookie } from './lib/i18n/language-cookie.ts';
import { browserStorage, createLanguageStore, languageFromSearch } from './lib/i18n/language-store.ts';
import { loadTranslations } from './lib/i18n/translations.ts';
import './app/styles.css';

/**
 * The entry script only starts what the first screen waits for, all at once: the app's code (its own
 * chunks: React, the router, Clerk's React SDK, i18next…), the app config, the active language's words
 * and Clerk's, and, once the config says where the Frontend API is, the two requests clerk-js makes
 * first. index.html preloads clerk-js itself. Nothing of this waits for the app's code to run.
 */
async function start(): Promise<void> {
  // Before clerk-js loads: it would take a development-browser token from the URL over the browser's own.
  keepOwnDevBrowserToken();
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element.');

  const languages = createLanguageStore(browserStorage());
  // Read before the first render so a shared `?lang=` link never flashes the other language.
  const fromUrl = languageFromSearch(window.location.search);
  if (fromUrl) languages.choose(fromUrl);
  // Before clerk-js's first requests: the Frontend API writes plan names in the interface's language.
  keepLanguageCookie(languages);
  const language = languages.get();

  const app = import('./app/start-app.tsx');
  const config = loadAppConfig(language);
  config.then(
    (appConfig) => {
      preloadClerkRequests(appConfig);
      // The proof-of-work captcha widget must be window.turnstile before clerk-js looks for it.
      installCaptcha(appConfig);
      // The offline gateway's Stripe.js stand-in must be window.Stripe before clerk-js could load Stripe.js.
      installOfflineStripe(appConfig);
      startClerkJs(appConfig);
    },
    () => {},
  );

  // ClerkProvider cannot be created without the publishable key and clerk-js URL, and no screen can be
  // shown without its words (Clerk's included), so nothing renders before all have loaded.
  try {
    const [{ startApp }, appConfig, words] = await Promise.all([
      app,
      config,
      loadTranslations(language),
      loadClerkLocalization(language),
    ]);
    await startApp(container, { config: appConfig, languages, translations: { [language]: words } });
  } catch (error) {
    console.error(error);
    const { showStartupError } = await app;
    showStartupError(container, error);
  }
}

void start();
