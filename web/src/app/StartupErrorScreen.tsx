import type { Language } from '../lib/i18n/languages.ts';
import { PRODUCT_NAME } from '../lib/product.ts';
import { browserStartupLanguage } from './startup-language.ts';

/**
 * Its own words, not i18next's: this screen shows when the app config or the translations failed to
 * load, so the translation files may be exactly what is missing. Kept to a few sentences in both languages.
 */
const WORDS: Record<
  Language,
  { title: string; heading: string; body: string; detail: string; retry: string }
> = {
  FR: {
    title: `Indisponible · ${PRODUCT_NAME}`,
    heading: `${PRODUCT_NAME} n'a pas pu démarrer`,
    body: "Les réglages ou les textes de l'application n'ont pas pu être chargés depuis le serveur ; rien d'autre ne peut fonctionner pour l'instant.",
    detail: 'Détails :',
    retry: 'Réessayer',
  },
  EN: {
    title: `Unavailable · ${PRODUCT_NAME}`,
    heading: `${PRODUCT_NAME} could not start`,
    body: "The application's settings or texts could not be loaded from the server, so nothing else can work yet.",
    detail: 'Details:',
    retry: 'Try again',
  },
};

/** Rendered by main.tsx instead of the app when the runtime config or the translations cannot be loaded. */
export function StartupErrorScreen({ error }: { error: unknown }) {
  const language = browserStartupLanguage();
  const words = WORDS[language];
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <main id="main" className="site-main" lang={language.toLowerCase()}>
      <section className="card card--error page-narrow" role="alert" data-testid="app-config-error">
        <title>{words.title}</title>
        <h1>{words.heading}</h1>
        <p>{words.body}</p>
        <p className="muted">
          {words.detail} <span data-testid="app-config-error-detail">{detail}</span>
        </p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {words.retry}
        </button>
      </section>
    </main>
  );
}
