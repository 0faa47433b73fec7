import { useReverification } from '@clerk/clerk-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n/useLanguage.ts';
import { HttpError } from '../../../lib/http/index.ts';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { CONSOLE_API, consoleSend } from '../api/console-api.ts';
import { consoleKey, settingsQuery } from '../api/console-queries.ts';
import type {
  AppliedSettings,
  InstanceSettingsDocument,
  SettingsChange,
  SettingsValidation,
} from '../api/types.ts';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';
import { formatInstant } from '../format.ts';
import { useConsole } from '../useConsole.ts';
import { mergePatch } from './merge-patch.ts';

/**
 * /console/settings — the effective instance settings as a JSON document (docs/instance-settings.md):
 * edit, check (the schema's errors, or the changes `path: before → after`), then apply with the version
 * read (re-verified; another operator's change in between is a conflict: reload).
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const { client, userId } = useConsole();
  const document = useQuery(settingsQuery(client, userId));
  // Kept here: the editor starts afresh on the version an apply answers.
  const [applied, setApplied] = useState<AppliedSettings | null>(null);
  const errorText = useConsoleErrorText();
  if (document.isPending) return <Loading testId="console-settings-loading" />;
  if (document.isError) {
    return (
      <LoadError
        what={t('console.settings.what')}
        message={errorText(document.error)}
        testId="console-settings-error"
        onRetry={() => void document.refetch()}
      />
    );
  }
  return (
    <SettingsEditor
      key={document.data.version}
      document={document.data}
      applied={applied}
      setApplied={setApplied}
    />
  );
}

const show = (value: unknown) => (value === undefined ? '∅' : JSON.stringify(value));

function SettingsEditor({
  document,
  applied,
  setApplied,
}: {
  document: InstanceSettingsDocument;
  applied: AppliedSettings | null;
  setApplied: (answer: AppliedSettings | null) => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { client, userId } = useConsole();
  const queries = useQueryClient();
  const errorText = useConsoleErrorText();
  const original = JSON.stringify(document.settings, null, 2);
  const [text, setText] = useState(original);
  const [checked, setChecked] = useState<{ text: string; answer: SettingsValidation } | null>(null);
  const [parseError, setParseError] = useState(false);

  const bodyOf = (source: string) => {
    const edited: unknown = JSON.parse(source);
    if (typeof edited !== 'object' || edited === null || Array.isArray(edited)) throw new SyntaxError();
    return {
      settings: mergePatch(document.settings, edited as Record<string, unknown>),
      version: document.version,
    };
  };
  const validate = useMutation({
    mutationFn: (source: string) =>
      consoleSend<SettingsValidation>(client, 'POST', `${CONSOLE_API}/settings/validate`, bodyOf(source)),
    onSuccess: (answer, source) => setChecked({ text: source, answer }),
  });
  const sendApply = useReverification((source: string) =>
    consoleSend<AppliedSettings>(client, 'POST', `${CONSOLE_API}/settings/apply`, bodyOf(source)),
  );
  const apply = useMutation({
    mutationFn: (source: string) => sendApply(source),
    onSuccess: (answer) => {
      setApplied(answer);
      setChecked(null);
      queries.setQueryData(settingsQuery(client, userId).queryKey, answer);
      void queries.invalidateQueries({ queryKey: [...consoleKey(userId), 'audit-events'] });
    },
  });
  const conflict = (error: unknown) => error instanceof HttpError && error.code === 'settings_conflict';

  const check = () => {
    setApplied(null);
    setChecked(null);
    try {
      bodyOf(text);
    } catch {
      setParseError(true);
      return;
    }
    setParseError(false);
    validate.mutate(text);
  };
  const current = checked?.text === text ? checked.answer : null;
  const changes: SettingsChange[] = current?.valid ? current.changes : [];
  const failure = validate.error ?? apply.error;

  return (
    <div data-testid="console-settings">
      <h2>{t('console.settings.title')}</h2>
      <p className="muted" data-testid="console-settings-version">
        {t('console.settings.version', {
          version: document.version,
          date: formatInstant(document.updated_at, language),
        })}
        {document.settings_file ? ` · ${t('console.settings.file')}` : ''}
      </p>
      {document.applied_at_start.length > 0 && (
        <p className="muted">
          {t('console.settings.appliedAtStart', { sections: document.applied_at_start.join(', ') })}
        </p>
      )}
      <label className="console__editor">
        <span>{t('console.settings.document')}</span>
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={24}
          spellCheck={false}
          data-testid="console-settings-text"
        />
      </label>
      <div className="console__actions">
        <button
          type="button"
          className="button button--secondary"
          disabled={validate.isPending}
          onClick={check}
          data-testid="console-settings-check"
        >
          {t('console.settings.check')}
        </button>
        <button
          type="button"
          className="button"
          disabled={!current?.valid || changes.length === 0 || apply.isPending}
          onClick={() => apply.mutate(text)}
          data-testid="console-settings-apply"
        >
          {t('console.settings.apply')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            setText(original);
            setChecked(null);
          }}
          disabled={text === original}
        >
          {t('console.settings.reset')}
        </button>
      </div>
      {parseError && (
        <p className="status status--error" role="alert" data-testid="console-settings-parse-error">
          {t('console.settings.notJson')}
        </p>
      )}
      {failure && (
        <p className="status status--error" role="alert" data-testid="console-settings-failure">
          {errorText(failure)}{' '}
          {conflict(failure) && (
            <button
              type="button"
              className="button button--secondary"
              data-testid="console-settings-reload"
              onClick={() =>
                void queries.invalidateQueries({ queryKey: settingsQuery(client, userId).queryKey })
              }
            >
              {t('console.settings.reload')}
            </button>
          )}
        </p>
      )}
      {current && !current.valid && (
        <div className="status status--error" role="alert" data-testid="console-settings-errors">
          <p>{t('console.settings.invalid')}</p>
          <ul>
            {current.errors.map((e, i) => (
              <li key={i}>
                <code>{e.path || 'settings'}</code> : {e.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {current?.valid && (
        <div data-testid="console-settings-diff">
          {changes.length === 0 ? (
            <p className="muted">{t('console.settings.noChange')}</p>
          ) : (
            <>
              <p>{t('console.settings.changes', { count: changes.length })}</p>
              <ul>
                {changes.map((change) => (
                  <li key={change.path} data-testid="console-settings-change">
                    <code>
                      {change.path}: {show(change.before)} → {show(change.after)}
                    </code>
                  </li>
                ))}
              </ul>
              {current.restart_required.length > 0 && (
                <p className="status status--warning" data-testid="console-settings-restart-warning">
                  {t('console.settings.restartRequired', { sections: current.restart_required.join(', ') })}
                </p>
              )}
            </>
          )}
        </div>
      )}
      {applied && (
        <p className="status status--ok" role="status" data-testid="console-settings-applied">
          {t('console.settings.applied', { version: applied.version })}{' '}
          {applied.restart_required.length > 0
            ? t('console.settings.restartRequired', { sections: applied.restart_required.join(', ') })
            : t('console.settings.noRestart')}
        </p>
      )}
    </div>
  );
}
