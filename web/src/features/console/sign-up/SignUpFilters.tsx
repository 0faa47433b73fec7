import { useTranslation } from 'react-i18next';
import { useListAddress } from '../layout/useListAddress.ts';
import type { SignUpFilters } from '../api/console-queries.ts';

/** The filters and page a sign-up list keeps in its address (`?status=&query=&offset=`). */
export function useSignUpFilters() {
  const { params, offset, setOffset, submitFilters } = useListAddress();
  const filters: SignUpFilters = {
    status: params.get('status') || undefined,
    query: params.get('query') || undefined,
  };
  return { filters, offset, setOffset, submitFilters, key: params.toString() };
}

/** A status (one of `statuses`, labelled under `statusKey`) and an address to search for. */
export function SignUpFiltersForm({
  statuses,
  statusKey,
  testId,
}: {
  statuses: readonly string[];
  /** Where the statuses' labels are (`console.signUp.waitlist.statuses`). */
  statusKey: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const { filters, submitFilters, key } = useSignUpFilters();
  return (
    <form className="console__filters" role="search" onSubmit={submitFilters} key={key}>
      <label>
        <span>{t('console.signUp.status')}</span>
        <select name="status" defaultValue={filters.status ?? ''} data-testid={`${testId}-status`}>
          <option value="">{t('console.signUp.any')}</option>
          {statuses.map((status) => (
            <option key={status} value={status}>
              {t(`${statusKey}.${status}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{t('console.signUp.email')}</span>
        <input
          type="search"
          name="query"
          maxLength={200}
          defaultValue={filters.query ?? ''}
          data-testid={`${testId}-query`}
        />
      </label>
      <button type="submit" className="button" data-testid={`${testId}-filter`}>
        {t('console.signUp.filter')}
      </button>
    </form>
  );
}
