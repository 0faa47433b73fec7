import { isValidElement, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Loading } from '../ui/Loading.tsx';

/**
 * A page loaded as its own chunk the first time it is shown, so the first screen downloads only what it
 * needs. Each page has its own boundary: the layout (header, navigation) stays on screen while a
 * page's code arrives, and only the page's place shows that it is loading.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props are checked where the page is declared
export function lazyPage<P extends Record<string, any>>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<ComponentType<P>> | undefined;
  // One request, whether preloaded or rendered first; a failed one is asked again on the next try.
  const start = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const Page = lazy(async () => ({ default: await start() }));
  function LazyPage(props: P) {
    return (
      <Suspense fallback={<Loading testId="page-loading" />}>
        <Page {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyPage, { preload: start });
}

/**
 * Starts loading the lazy page a route element shows (itself or inside a guard such as
 * RequireSignedIn), so the page opened first downloads while clerk-js loads rather than after it: pages
 * render only once Clerk has loaded.
 */
export function preloadPageOf(element: ReactNode): void {
  if (!isValidElement(element)) return;
  const preload = (element.type as { preload?: () => Promise<unknown> }).preload;
  if (preload) {
    preload().catch(() => {
      // Rendering the page asks again and shows the loading error there.
    });
    return;
  }
  preloadPageOf((element.props as { children?: ReactNode }).children);
}
