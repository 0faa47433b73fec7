import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The one neutral "please wait" used everywhere, so slow steps look alike and are announced alike. */
export function Loading({ children, testId }: { children?: ReactNode; testId?: string }) {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status" data-testid={testId}>
      <span className="loading__spinner" aria-hidden="true" />
      {children ?? t('common.loading')}
    </p>
  );
}
