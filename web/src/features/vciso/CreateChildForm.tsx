import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChildOrganization } from './api/child-organization.ts';
import { createChildOrganization } from './api/create-child-organization.ts';
import { useHierarchyChange } from './useHierarchyChange.ts';

/** Creates a client organisation; the server makes the user its virtual security officer. */
export function CreateChildForm({ onCreated }: { onCreated: (child: ChildOrganization) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const { busy, error, run } = useHierarchyChange(createChildOrganization);

  function submit(event: FormEvent) {
    event.preventDefault();
    void run({ name: name.trim(), ...(slug.trim() ? { slug: slug.trim() } : {}) }).then((child) => {
      if (!child) return;
      setName('');
      setSlug('');
      onCreated(child);
    });
  }

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('vciso.create.heading')}</h2>
      <form className="vciso-form" onSubmit={submit} data-testid="create-child-form">
        <label htmlFor={`${id}-name`}>{t('vciso.create.name')}</label>
        <input
          id={`${id}-name`}
          className="input"
          required
          maxLength={256}
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="create-child-name"
        />
        <label htmlFor={`${id}-slug`}>{t('vciso.create.slug')}</label>
        <input
          id={`${id}-slug`}
          className="input"
          maxLength={64}
          pattern="[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?"
          aria-describedby={`${id}-slug-hint`}
          value={slug}
          onChange={(e) => setSlug(e.currentTarget.value)}
          data-testid="create-child-slug"
        />
        <p id={`${id}-slug-hint`} className="muted vciso-form__hint">
          {t('vciso.create.slugHint')}
        </p>
        <button
          type="submit"
          className="button"
          disabled={busy || !name.trim()}
          data-testid="create-child-submit"
        >
          {busy ? t('vciso.create.submitting') : t('vciso.create.submit')}
        </button>
      </form>
      {error && (
        <p className="status status--error" role="alert" data-testid="create-child-error">
          {error}
        </p>
      )}
    </section>
  );
}
