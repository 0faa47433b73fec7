import { useTranslation } from 'react-i18next';
import type { SubscriptionStatus } from '../../state/auth/organization-metadata.ts';
import './subscription-badge.css';

/**
 * An organisation's `hasActiveSubscription` (YES, NO or TRIAL) as a badge. Read-only everywhere: the product
 * server derives it from the organisation's billing subscription (docs/billing.md); /pricing changes it.
 */
export function SubscriptionBadge({ status }: { status: SubscriptionStatus }) {
  const { t } = useTranslation();
  const labels: Record<SubscriptionStatus, string> = {
    YES: t('subscription.status.YES'),
    NO: t('subscription.status.NO'),
    TRIAL: t('subscription.status.TRIAL'),
  };
  return (
    <span
      className={`subscription-badge subscription-badge--${status.toLowerCase()}`}
      data-testid="subscription-badge"
      data-status={status}
      title={t('subscription.label')}
    >
      {labels[status]}
    </span>
  );
}

/** The badge as a fact of an organisation (a `<dt>`/`<dd>` pair for a `<dl className="facts">`). */
export function SubscriptionFact({ status }: { status: SubscriptionStatus | undefined }) {
  const { t } = useTranslation();
  return (
    <>
      <dt>{t('subscription.label')}</dt>
      <dd>
        <SubscriptionBadge status={status ?? 'NO'} />
      </dd>
    </>
  );
}
