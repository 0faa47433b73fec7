import { useTranslation } from 'react-i18next';

/** Previous and next pages of a list of `total` rows shown `size` at a time from `offset`. */
export function Pager({
  offset,
  size,
  total,
  onChange,
}: {
  offset: number;
  size: number;
  total: number;
  onChange: (offset: number) => void;
}) {
  const { t } = useTranslation();
  if (total <= size) return null;
  return (
    <p className="console__pager">
      <button
        type="button"
        className="button button--secondary"
        disabled={offset === 0}
        onClick={() => onChange(Math.max(0, offset - size))}
      >
        {t('console.previous')}
      </button>
      <span>{t('console.range', { from: offset + 1, to: Math.min(total, offset + size), total })}</span>
      <button
        type="button"
        className="button button--secondary"
        disabled={offset + size >= total}
        onClick={() => onChange(offset + size)}
      >
        {t('console.next')}
      </button>
    </p>
  );
}
