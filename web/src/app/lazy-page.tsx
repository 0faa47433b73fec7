import { lazy, Suspense, type ComponentType } from 'react';
import { Loading } from '../ui/Loading.tsx';

/**
 * A page loaded as its own chunk the first time it is shown, so the first screen downloads only what it
 * needs. Each page has its own boundary: the layout (header, navigation) stays on screen while a
 * page's code arrives, and only the page's place shows that it is loading.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props are checked where the page is declared
export function lazyPage<P extends Record<string, any>>(load: () => Promise<ComponentType<P>>) {
  const Page = lazy(async () => ({ default: await load() }));
  return function LazyPage(props: P) {
    return (
      <Suspense fallback={<Loading testId="page-loading" />}>
        <Page {...props} />
      </Suspense>
    );
  };
}
