import { useTranslation } from 'react-i18next';

/** Metadata, read only: each kind as indented JSON (the Backend API's `*_metadata` objects). */
export function MetadataView({
  entries,
}: {
  entries: [string, Record<string, unknown> | null | undefined][];
}) {
  const { t } = useTranslation();
  return (
    <dl className="console__metadata" data-testid="console-metadata">
      {entries.map(([kind, value]) => (
        <div key={kind}>
          <dt>{t(`console.metadata.${kind}`)}</dt>
          <dd>
            <pre>{JSON.stringify(value ?? {}, null, 2)}</pre>
          </dd>
        </div>
      ))}
    </dl>
  );
}
