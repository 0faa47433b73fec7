import { CreateOrganization } from '@clerk/clerk-react';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '../../lib/product.ts';
import { CREATE_ORGANIZATION_PATH } from '../../state/auth/empty-organization-rule.ts';
import { Loading } from '../../ui/Loading.tsx';

export function CreateOrganizationPage() {
  return (
    <section
      className="clerk-page"
      data-testid="create-organization-page"
      aria-label="Create an organisation"
    >
      <title>{`Create an organisation · ${PRODUCT_NAME}`}</title>
      <CreateOrganization
        routing="path"
        path={CREATE_ORGANIZATION_PATH}
        afterCreateOrganizationUrl="/dashboard"
        fallback={<Loading />}
      />
      <p className="muted clerk-page__aside">
        Invited to an organisation? <Link to="/organizations">See your invitations</Link>.
      </p>
    </section>
  );
}
