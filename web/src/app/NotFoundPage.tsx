import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../ui/PageTitle.tsx';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="card page-narrow" data-testid="not-found">
      <PageTitle>{t('errors.notFound.title')}</PageTitle>
      <h1>{t('errors.notFound.title')}</h1>
      <p>{t('errors.notFound.body')}</p>
      <p>
        <Link to="/" data-testid="not-found-home-link">
          {t('common.goHome')}
        </Link>
      </p>
    </section>
  );
}
