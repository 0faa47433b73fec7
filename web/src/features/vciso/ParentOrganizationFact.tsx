import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParentOrganization } from './useParentOrganization.ts';
import { useSwitchOrganization } from './useSwitchOrganization.ts';
import './vciso.css';

/**
 * The active organisation's parent as a fact of it (a `<dt>`/`<dd>` pair for a `<dl className="facts">`):
 * a one-click switch for members of the parent, its name alone for everyone else; nothing without one.
 */
export function ParentOrganizationFact() {
  const { t } = useTranslation();
  const parent = useParentOrganization();
  const switchTo = useSwitchOrganization();
  const [state, setState] = useState<'idle' | 'switching' | 'failed'>('idle');
  if (!parent) return null;

  async function open(organizationId: string) {
    setState('switching');
    try {
      await switchTo(organizationId);
    } catch (error) {
      console.warn('Switching to the parent organisation failed.', error);
      setState('failed');
    }
  }

  return (
    <>
      <dt>{t('vciso.parent.label')}</dt>
      <dd data-testid="parent-organization">
        {parent.isMember ? (
          <button
            type="button"
            className="link-button"
            data-testid="parent-organization-link"
            aria-label={t('vciso.parent.switchTo', { name: parent.name })}
            disabled={state === 'switching'}
            onClick={() => void open(parent.id)}
          >
            {parent.name}
          </button>
        ) : (
          <span data-testid="parent-organization-name">{parent.name}</span>
        )}
        {state === 'failed' && (
          <span className="status status--error" role="alert">
            {t('vciso.switch.failed')}
          </span>
        )}
      </dd>
    </>
  );
}
