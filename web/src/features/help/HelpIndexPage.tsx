import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { GENERAL_HELP_PAGES, HELP_PAGES, helpPagePath, type HelpPageName } from './help-pages.ts';
import { useHelpPageTexts } from './useHelpPageTexts.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import './help.css';

const MODULE_HELP_PAGES = HELP_PAGES.filter((name) => !GENERAL_HELP_PAGES.includes(name));

/** The help centre's front page: every help page, the product's first, then one per module. */
export function HelpIndexPage() {
  const { t } = useTranslation();
  return (
    <section className="card help" data-testid="help-index" aria-labelledby="help-index-heading">
      <PageTitle>{t('help.index.title')}</PageTitle>
      <h1 id="help-index-heading">{t('help.index.title')}</h1>
      <p className="muted">{t('help.index.intro')}</p>
      <HelpPageList headingId="help-general" heading={t('help.index.general')} pages={GENERAL_HELP_PAGES} />
      <HelpPageList headingId="help-modules" heading={t('help.index.modules')} pages={MODULE_HELP_PAGES} />
    </section>
  );
}

function HelpPageList({
  headingId,
  heading,
  pages,
}: {
  headingId: string;
  heading: string;
  pages: readonly HelpPageName[];
}) {
  const texts = useHelpPageTexts();
  return (
    <>
      <h2 id={headingId}>{heading}</h2>
      <ul className="help-index" aria-labelledby={headingId}>
        {pages.map((name) => (
          <li key={name}>
            <Link to={helpPagePath(name)} data-testid={`help-link-${name}`}>
              {texts[name].title}
            </Link>
            <p className="muted">{texts[name].summary}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
