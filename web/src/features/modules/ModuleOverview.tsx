import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HelpContent } from '../help/HelpContent.tsx';
import { helpPagePath } from '../help/help-pages.ts';
import type { ModuleDefinition } from './modules.ts';
import { useModuleTexts } from './useModuleTexts.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import './modules.css';

/** An enabled module's front page: its name and summary, then its help page as the overview. */
export function ModuleOverview({ module }: { module: ModuleDefinition }) {
  const { t } = useTranslation();
  const { name, summary } = useModuleTexts()[module.key];
  return (
    <div className="module-page" data-testid="module-overview" data-module={module.key}>
      <PageTitle>{name}</PageTitle>
      <header className="card module-page__header">
        <h1 data-testid="module-title">{name}</h1>
        <p className="module-page__summary">{summary}</p>
        <p className="muted">
          <Link to={helpPagePath(module.helpPage)} data-testid="module-help-link">
            {t('modules.overview.openInHelp')}
          </Link>
        </p>
      </header>
      <article className="card" aria-label={t('modules.overview.label', { module: name })}>
        {/* The page's own heading is above; the help page's title would repeat it. */}
        <HelpContent name={module.helpPage} withoutTitle />
      </article>
    </div>
  );
}
