import { isValidElement, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Loading } from '../ui/Loading.tsx';

/**
 * A page loaded as its own chunk the first time it is shown, so the first screen downloads only what it
 * needs. Each page has its own boundary: the layout (header, navigation) stays on screen while a
 * page's code arrives, and only the page's place shows that it is loading.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props are checked where the page is declared
export function lazyPage<P extends Record<string, any>>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  // One request, whether preloaded or rendered first; a failed one is asked again on the next try.
  const start = () => {
    loading ??= load().then(
      (page) => (loaded = page),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  // Not React.lazy and Suspense: a page that suspends, even for a tick with its code already here, shows
  // its fallback, and React then holds the content back for up to 300 ms after that fallback showed. The
  // dashboard appeared that much later than it could. A page whose code has arrived (preloaded while
  // clerk-js loaded) renders at once; one whose code is on its way shows the loading line in its place
  // and renders when the code arrives, as a plain update.
  function LazyPage(props: P) {
    const [state, setState] = useState<{ page?: ComponentType<P>; error?: unknown }>(() => ({
      page: loaded,
    }));
    useEffect(() => {
      if (state.page || state.error !== undefined) return;
      let current = true;
      start().then(
        (page) => current && setState({ page }),
        (error: unknown) => current && setState({ error }),
      );
      return () => {
        current = false;
      };
    }, [state]);
    // To the route's error boundary, as a failed lazy() did.
    if (state.error !== undefined) throw state.error;
    const Page = state.page;
    return Page ? <Page {...props} /> : <Loading testId="page-loading" />;
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
