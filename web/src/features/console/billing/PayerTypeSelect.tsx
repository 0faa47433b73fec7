import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterSelect } from '../layout/FilterSelect.tsx';

export const PAYER_TYPES = ['user', 'org'] as const;

/** The billing lists' payer type filter: any, users or organisations. */
export function PayerTypeSelect(
  select: Omit<ComponentProps<typeof FilterSelect>, 'label' | 'anyLabel' | 'choices'>,
) {
  const { t } = useTranslation();
  return (
    <FilterSelect
      label={t('console.billing.payerType')}
      anyLabel={t('console.billing.any')}
      choices={PAYER_TYPES.map((type) => ({ value: type, label: t(`console.billing.payerTypes.${type}`) }))}
      {...select}
    />
  );
}
