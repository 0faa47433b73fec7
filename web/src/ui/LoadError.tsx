import { useTranslation } from 'react-i18next';

/**
 * The one way a failed read is shown: what failed, why, and a way to try again. `what` and `message`
 * arrive translated; `what` is the object of "Could not load …" (e.g. "the members").
 */
export function LoadError({
  what,
  message,
  testId,
  onRetry,
}: {
  what: string;
  message: string;
  testId: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="status status--error" role="alert">
      <p>{t('common.loadFailed', { what })}</p>
      <p data-testid={testId}>{message}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {t('common.tryAgain')}
      </button>
    </div>
  );
}
