import { lazy, Suspense, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../ui/Loading.tsx';
// Imported here rather than by the viewer, so the viewer also renders under Node in unit tests.
import './markdown.css';

// react-markdown and its parsers are the bulk of the help centre: loaded on the first help page only.
const MarkdownViewer = lazy(() =>
  import('./MarkdownViewer.tsx').then((m) => ({ default: m.MarkdownViewer })),
);

export function LazyMarkdownViewer(props: ComponentProps<typeof MarkdownViewer>) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<Loading testId="markdown-loading">{t('help.loading')}</Loading>}>
      <MarkdownViewer {...props} />
    </Suspense>
  );
}
