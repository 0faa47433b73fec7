import { useTranslation } from 'react-i18next';
import { LoadError } from '../../ui/LoadError.tsx';
import { Loading } from '../../ui/Loading.tsx';
import { HelpNotFound } from './HelpNotFound.tsx';
import { LazyMarkdownViewer } from './markdown/LazyMarkdownViewer.tsx';
import { useHelpPage } from './useHelpPage.ts';

/**
 * One help page's markdown in the interface language, with its loading, missing and failed states.
 * Used by the help centre and by the module overviews, which are built from the same pages.
 */
export function HelpContent({ name, withoutTitle = false }: { name: string; withoutTitle?: boolean }) {
  const { t } = useTranslation();
  const { state, retry } = useHelpPage(name);
  return (
    // Not a live region: the page itself would be read out; Loading and LoadError announce themselves.
    <div aria-busy={state.status === 'loading'}>
      {state.status === 'loading' && <Loading testId="help-loading">{t('help.loading')}</Loading>}
      {state.status === 'missing' && <HelpNotFound />}
      {state.status === 'error' && (
        <LoadError what={t('help.loadError')} message={state.message} testId="help-error" onRetry={retry} />
      )}
      {state.status === 'found' && (
        <LazyMarkdownViewer markdown={state.markdown} withoutTitle={withoutTitle} />
      )}
    </div>
  );
}
