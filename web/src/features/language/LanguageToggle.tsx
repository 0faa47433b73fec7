import { useUser } from '@clerk/clerk-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../lib/i18n/languages.ts';
import { useLanguage } from '../../lib/i18n/useLanguage.ts';
import { rememberUserLanguage } from './user-language.ts';

/**
 * FR | EN switch in the header; the pressed button is the current language. A signed-in user's choice is
 * also kept as theirs, for the mail and SMS the identity provider sends them.
 */
export function LanguageToggle() {
  const { t } = useTranslation();
  const { language, choose } = useLanguage();
  const { user } = useUser();
  return (
    <div className="language-toggle" role="group" aria-label={t('language.toggleLabel')}>
      {LANGUAGES.map((code) => (
        <button
          key={code}
          type="button"
          className="language-toggle__option"
          aria-pressed={language === code}
          lang={code.toLowerCase()}
          title={t(`language.names.${code}`)}
          data-testid={`language-${code}`}
          onClick={() => {
            choose(code);
            if (user) void rememberUserLanguage(user, code);
          }}
        >
          {code}
        </button>
      ))}
    </div>
  );
}
