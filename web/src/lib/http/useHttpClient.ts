import { useAuth } from '@clerk/clerk-react';
import { useLayoutEffect, useMemo } from 'react';
import { useLanguageStore } from '../i18n/useLanguage.ts';
import { createHttpClient, type HttpClient } from './client.ts';
import { PRODUCT_PROTECTED_URLS } from './protected-urls.ts';
import type { GetLanguage } from './types.ts';

export interface UseHttpClientOptions {
  /** Overrides where the UI language comes from (the interface language by default). */
  getLanguage?: GetLanguage;
}

/**
 * The product's HTTP client, wired to Clerk's session token and to the interface language. Must sit
 * inside ClerkProvider and the language store. The client keeps its identity while the language
 * changes, so effects that depend on it do not rerun; each request reads the language current when it
 * is sent.
 */
export function useHttpClient(options: UseHttpClientOptions = {}): HttpClient {
  // getToken keeps its identity for the lifetime of ClerkProvider.
  const { getToken } = useAuth();
  const languages = useLanguageStore();
  const injected = options.getLanguage;

  // The language is read through a source the client owns, so a different source updates it instead
  // of creating a new client.
  const { client, language } = useMemo(() => {
    const language = createLanguageSource(languages.get);
    const client = createHttpClient({
      protectedUrls: PRODUCT_PROTECTED_URLS,
      getToken: () => getToken(),
      getLanguage: language.get,
    });
    return { client, language };
  }, [getToken, languages]);

  // A layout effect runs before the passive effects that send requests on mount.
  useLayoutEffect(() => {
    language.set(injected ?? languages.get);
  }, [language, injected, languages]);

  return client;
}

function createLanguageSource(initial: GetLanguage): {
  get: GetLanguage;
  set: (source: GetLanguage) => void;
} {
  let current = initial;
  return {
    get: () => current(),
    set: (source) => {
      current = source;
    },
  };
}
