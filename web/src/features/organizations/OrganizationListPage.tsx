import { OrganizationList } from '@clerk/clerk-react';
import { PRODUCT_NAME } from '../../lib/product.ts';
import { Loading } from '../../ui/Loading.tsx';

export function OrganizationListPage() {
  return (
    <section className="clerk-page" data-testid="organization-list-page" aria-label="Your organisations">
      <title>{`Your organisations · ${PRODUCT_NAME}`}</title>
      <OrganizationList
        hidePersonal
        afterSelectOrganizationUrl="/dashboard"
        afterCreateOrganizationUrl="/dashboard"
        fallback={<Loading />}
      />
    </section>
  );
}
