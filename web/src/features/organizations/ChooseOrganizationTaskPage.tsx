import { TaskChooseOrganization } from '@clerk/clerk-react';
import { PRODUCT_NAME } from '../../lib/product.ts';

/**
 * Clerk's choose-organization task: on an instance that forces an organisation, a session stays pending
 * here until the user picks or creates one.
 */
export function ChooseOrganizationTaskPage() {
  return (
    <section
      className="clerk-page"
      data-testid="choose-organization-task-page"
      aria-label="Choose an organisation"
    >
      <title>{`Choose an organisation · ${PRODUCT_NAME}`}</title>
      <TaskChooseOrganization redirectUrlComplete="/dashboard" />
    </section>
  );
}
