import { useAuth } from '@clerk/clerk-react';
import { useLayoutEffect, useMemo } from 'react';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { createHttpClient, type HttpClient } from './client.ts';
import { DEFAULT_LANGUAGE } from './localization-interceptor.ts';
import { PRODUCT_PROTECTED_URLS } from './protected-urls.ts';
import type { GetLanguage } from './types.ts';

export interface UseHttpClientOptions {
  /** Overrides where the UI language comes from (a real language switch arrives later). */
  getLanguage?: GetLanguage;
}

/**
 * The product's HTTP client, wired to Clerk's session token and to the active organisation's
 * `uiLanguage` from the auth state (FR without one). Must sit inside ClerkProvider and
 * AuthStateProvider. The client keeps its identity while the language changes, so effects that depend
 * on it do not rerun; each request reads the language current when it is sent.
 */
export function useHttpClient(options: UseHttpClientOptions = {}): HttpClient {
  // getToken keeps its identity for the lifetime of ClerkProvider.
  const { getToken } = useAuth();
  const uiLanguage = useAuthState().organization?.publicMetadata.uiLanguage;
  const injected = options.getLanguage;

  // The language is read through a source the client owns, so a language change updates the source
  // instead of creating a new client.
  const { client, language } = useMemo(() => {
    const language = createLanguageSource();
    const client = createHttpClient({
      protectedUrls: PRODUCT_PROTECTED_URLS,
      getToken: () => getToken(),
      getLanguage: language.get,
    });
    return { client, language };
  }, [getToken]);

  // A layout effect runs before the passive effects that send requests on mount.
  useLayoutEffect(() => {
    language.set(injected ?? (() => uiLanguage ?? DEFAULT_LANGUAGE));
  }, [language, injected, uiLanguage]);

  return client;
}

function createLanguageSource(): { get: GetLanguage; set: (source: GetLanguage) => void } {
  let current: GetLanguage = () => DEFAULT_LANGUAGE;
  return {
    get: () => current(),
    set: (source) => {
      current = source;
    },
  };
}
