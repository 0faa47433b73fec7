import { TaskChooseOrganization } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../ui/PageTitle.tsx';

/**
 * Clerk's choose-organization task: on an instance that forces an organisation, a session stays pending
 * here until the user picks or creates one.
 */
export function ChooseOrganizationTaskPage() {
  const { t } = useTranslation();
  return (
    <section
      className="clerk-page"
      data-testid="choose-organization-task-page"
      aria-label={t('organizations.choose')}
    >
      <PageTitle>{t('organizations.choose')}</PageTitle>
      <TaskChooseOrganization redirectUrlComplete="/dashboard" />
    </section>
  );
}
