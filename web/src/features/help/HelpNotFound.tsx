import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HELP_INDEX_PATH } from './help-pages.ts';

/** A help page that does not exist: said kindly, with the way back to the list of pages. Sits in a card. */
export function HelpNotFound() {
  const { t } = useTranslation();
  return (
    <section className="help-not-found" data-testid="help-not-found" aria-labelledby="help-not-found-heading">
      <h1 id="help-not-found-heading">{t('help.notFound.title')}</h1>
      <p>{t('help.notFound.text')}</p>
      <p>
        <Link to={HELP_INDEX_PATH} data-testid="help-not-found-index-link">
          {t('help.notFound.backToIndex')}
        </Link>
      </p>
    </section>
  );
}
