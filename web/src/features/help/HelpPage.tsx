import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { HELP_INDEX_PATH, isHelpPageName } from './help-pages.ts';
import { HelpContent } from './HelpContent.tsx';
import { useHelpPageTexts } from './useHelpPageTexts.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import './help.css';

/** `/help/:name`: one help page; a name that is not a plain slug never reaches the network. */
export function HelpPage() {
  const { t } = useTranslation();
  const texts = useHelpPageTexts();
  const name = useParams().name ?? '';
  const title = isHelpPageName(name) ? texts[name].title : t('help.index.title');
  return (
    <div className="help" data-testid="help-page" data-page={name}>
      <PageTitle>{title}</PageTitle>
      <nav className="help__breadcrumb" aria-label={t('help.breadcrumb')}>
        <Link to={HELP_INDEX_PATH} data-testid="help-index-link">
          {t('help.index.title')}
        </Link>
      </nav>
      <article className="card help__article">
        <HelpContent name={name} />
      </article>
    </div>
  );
}
