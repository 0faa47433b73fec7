import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../lib/i18n/useLanguage.ts';
import { LOCALES } from '../../lib/i18n/languages.ts';
import { MODULES } from '../modules/modules.ts';
import { useModuleTexts } from '../modules/useModuleTexts.ts';

/** States plainly what does not exist yet, instead of showing placeholders that look like features. */
export function ComingNext() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const texts = useModuleTexts();
  // "a, b and c" / "a, b et c", as each language joins a list.
  const modules = new Intl.ListFormat(LOCALES[language], { type: 'conjunction' }).format(
    MODULES.map((module) => texts[module.key].name),
  );
  return (
    <section className="card" aria-labelledby="coming-next-heading" data-testid="coming-next">
      <h2 id="coming-next-heading">{t('dashboard.comingNext.heading')}</h2>
      <p>{t('dashboard.comingNext.intro')}</p>
      <ul className="coming-next">
        <li>
          <strong>{t('dashboard.comingNext.modulesTitle')}</strong>{' '}
          {t('dashboard.comingNext.modulesBody', { modules })}
        </li>
        <li>
          <strong>{t('dashboard.comingNext.helpTitle')}</strong> {t('dashboard.comingNext.helpBody')}
        </li>
      </ul>
    </section>
  );
}
