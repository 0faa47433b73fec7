import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ConsoleBillingPayer } from '../api/types.ts';

/** Who pays, linked to the user's or the organisation's page in the console. */
export function PayerLink({ payer }: { payer: ConsoleBillingPayer | null }) {
  const { t } = useTranslation();
  if (payer?.user_id)
    return (
      <>
        {t('console.billing.payerUser')} <Link to={`/console/users/${payer.user_id}`}>{payer.user_id}</Link>
      </>
    );
  if (payer?.organization_id)
    return (
      <>
        {t('console.billing.payerOrganization')}{' '}
        <Link to={`/console/organizations/${payer.organization_id}`}>{payer.organization_id}</Link>
      </>
    );
  return <>—</>;
}
