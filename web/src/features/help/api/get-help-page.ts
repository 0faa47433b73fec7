import { localizedFetch } from '../../../lib/http/localized-fetch.ts';
import { languagePathCode, type Language } from '../../../lib/i18n/languages.ts';
import { isPlainSlug } from '../help-pages.ts';

/** Spec §2, §7: markdown help lives at assets/i18n/{lang}/{name}.md, language in lowercase. */
export const helpFileUrl = (language: Language, name: string): string =>
  `/assets/i18n/${languagePathCode(language)}/${name}.md`;

export type HelpPageResult =
  | { status: 'found'; markdown: string }
  /** No such page: an unknown name, a refused one, or a 404. */
  | { status: 'missing' }
  | { status: 'error'; message: string };

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/**
 * Reads one help page as text. A same-origin static file needs no session token, but it announces the
 * language in x-localization like every product request (localizedFetch); `fetch` is the transport
 * under that header. Failures come back as values; only an abort throws.
 */
export async function fetchHelpPage(
  language: Language,
  name: string,
  { signal, fetch: fetchImpl }: { signal?: AbortSignal; fetch?: Fetch } = {},
): Promise<HelpPageResult> {
  if (!isPlainSlug(name)) return { status: 'missing' };
  try {
    const send = localizedFetch(language, {
      fetch: fetchImpl && ((input, init) => fetchImpl(String(input), init)),
    });
    const response = await send(helpFileUrl(language, name), {
      signal,
      headers: { accept: 'text/markdown, text/plain;q=0.9' },
    });
    if (response.status === 404) return { status: 'missing' };
    if (!response.ok) return { status: 'error', message: `HTTP ${response.status}` };
    // A development server or proxy may answer an unknown path with the app's index.html: not a help page.
    if (/text\/html/i.test(response.headers.get('content-type') ?? '')) return { status: 'missing' };
    return { status: 'found', markdown: await response.text() };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { status: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}
