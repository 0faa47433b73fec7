import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { ProductApiCard } from './ProductApiCard.tsx';

/** /diagnostics — technical checks of the session for support, kept off the users' dashboard. */
export function DiagnosticsPage() {
  const { t } = useTranslation();
  return (
    <div className="page-narrow" data-testid="diagnostics-page">
      <PageTitle>{t('diagnostics.title')}</PageTitle>
      <h1>{t('diagnostics.heading')}</h1>
      <p className="muted">{t('diagnostics.intro')}</p>
      <ProductApiCard />
    </div>
  );
}
