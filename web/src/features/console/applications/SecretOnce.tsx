import { useTranslation } from 'react-i18next';

/** A secret just made (a client secret, a machine's key): shown this once, never again. */
export function SecretOnce({ label, secret, testId }: { label: string; secret?: string; testId: string }) {
  const { t } = useTranslation();
  if (!secret) return null;
  return (
    <div className="status status--ok" role="status" data-testid={testId}>
      <p>{t('console.applications.secretOnce')}</p>
      <p>
        {label} <code data-testid={`${testId}-value`}>{secret}</code>
      </p>
    </div>
  );
}
