/**
 * The embedded instance's self-hosted captcha (an ALTCHA proof of work) presented to clerk-js as Cloudflare
 * Turnstile: clerk-js 5.90.0 only knows Turnstile, and loads Cloudflare's script only when `window.turnstile`
 * is undefined (utils/captcha/turnstile.ts). This object answers the calls clerk-js makes —
 * `render(container, {sitekey, callback, 'error-callback', 'before-interactive-callback', …})`, `reset`,
 * `remove`, plus `execute` and `getResponse` — by fetching a challenge from the instance, solving it in the
 * browser (altcha-lib, one SHA-256 per try) and handing clerk-js the solution as the token, which the server
 * verifies and spends once. Installed before clerk-js loads, only when the app config says the instance's
 * captcha is the proof of work; hosted Clerk and Turnstile instances load Cloudflare's script as always.
 */

/** The site key the instance gives for its proof of work (identity/src/captcha/captcha-environment.ts). */
export const PROOF_OF_WORK_SITE_KEY = 'qoala_proof_of_work';

/** Turnstile's "invalid sitekey" error code: not one clerk-js retries. */
const INVALID_SITE_KEY = '110100';
/** Turnstile's code for a widget that failed; clerk-js resets it and tries again, twice. */
const CRASHED = 'crashed';
/** A solve longer than this shows the widget (the modal, or the space under the form) with its progress. */
const SHOW_AFTER_MS = 300;

type WidgetState = 'working' | 'done' | 'failed';

const WIDGET_WORDS: Record<'fr' | 'en', Record<WidgetState, string>> = {
  fr: { working: 'Vérification que vous êtes humain…', done: 'Vérifié', failed: 'La vérification a échoué' },
  en: { working: 'Verifying you are human…', done: 'Verified', failed: 'Verification failed' },
};

/**
 * What the widget says, in the page's language (`<html lang>`, which the product's i18n keeps): clerk-js
 * shows the widget in its captcha modal, where Cloudflare's own would speak the reader's language.
 */
export function widgetWords(lang: string): Record<WidgetState, string> {
  return lang.toLowerCase().startsWith('fr') ? WIDGET_WORDS.fr : WIDGET_WORDS.en;
}

export interface TurnstileRenderParams {
  sitekey?: string;
  callback?: (token: string) => void;
  'error-callback'?: (code: string) => void;
  'before-interactive-callback'?: () => void;
  [other: string]: unknown;
}

export interface TurnstileLike {
  render(container: string | HTMLElement, params: TurnstileRenderParams): string | undefined;
  execute(container: string | HTMLElement, params?: TurnstileRenderParams): void;
  reset(widgetId?: string): void;
  remove(widgetId?: string): void;
  getResponse(widgetId?: string): string | undefined;
  isExpired(widgetId?: string): boolean;
  ready(callback: () => void): void;
}

/** Solves one challenge into a token; injectable so the widget's logic is testable without the work. */
export type Solver = (challenge: unknown, signal: AbortSignal) => Promise<string>;

interface Widget {
  id: string;
  element: HTMLElement;
  params: TurnstileRenderParams;
  controller: AbortController;
  token: string | undefined;
}

/** Fetches a challenge from `challengeUrl` and solves it with altcha-lib (loaded when first needed). */
export function altchaSolver(): Solver {
  return async (challenge, signal) => {
    const [{ solveChallenge }, { deriveKey }] = await Promise.all([
      import('altcha-lib'),
      import('altcha-lib/algorithms/web/sha'),
    ]);
    const controller = new AbortController();
    signal.addEventListener('abort', () => controller.abort());
    const solution = await solveChallenge({
      challenge: challenge as Parameters<typeof solveChallenge>[0]['challenge'],
      deriveKey,
      controller,
    });
    if (!solution) throw new Error('The proof of work was not solved.');
    return btoa(JSON.stringify({ challenge, solution }));
  };
}

export function createProofOfWorkTurnstile(opts: {
  challengeUrl: string;
  solve?: Solver;
  fetchChallenge?: (url: string, signal: AbortSignal) => Promise<unknown>;
}): TurnstileLike {
  const solve = opts.solve ?? altchaSolver();
  const fetchChallenge =
    opts.fetchChallenge ??
    (async (url: string, signal: AbortSignal) => {
      const res = await fetch(url, { credentials: 'same-origin', cache: 'no-store', signal });
      if (!res.ok) throw new Error(`The captcha challenge answered ${res.status}.`);
      return res.json() as Promise<unknown>;
    });
  const widgets = new Map<string, Widget>();
  let next = 0;

  const find = (widgetId?: string): Widget | undefined =>
    widgetId === undefined ? [...widgets.values()].at(-1) : widgets.get(widgetId);

  function show(widget: Widget, state: WidgetState) {
    widget.element.textContent = widgetWords(document.documentElement.lang)[state];
    widget.element.dataset.state = state;
  }

  function start(widget: Widget) {
    widget.controller.abort();
    const controller = new AbortController();
    widget.controller = controller;
    widget.token = undefined;
    show(widget, 'working');
    const reveal = setTimeout(() => widget.params['before-interactive-callback']?.(), SHOW_AFTER_MS);
    void (async () => {
      try {
        const challenge = await fetchChallenge(opts.challengeUrl, controller.signal);
        const token = await solve(challenge, controller.signal);
        if (controller.signal.aborted) return;
        widget.token = token;
        show(widget, 'done');
        widget.params.callback?.(token);
      } catch {
        if (controller.signal.aborted) return;
        show(widget, 'failed');
        widget.params['error-callback']?.(CRASHED);
      } finally {
        clearTimeout(reveal);
      }
    })();
  }

  return {
    render(container, params) {
      const host = typeof container === 'string' ? document.querySelector<HTMLElement>(container) : container;
      if (!host) throw new Error(`No element ${String(container)} to render the captcha in.`);
      if (params.sitekey !== PROOF_OF_WORK_SITE_KEY) {
        // A Turnstile site key (the instance moved to Turnstile since this page loaded): not ours to run.
        queueMicrotask(() => params['error-callback']?.(INVALID_SITE_KEY));
        return undefined;
      }
      const id = `pow-${++next}`;
      const element = document.createElement('div');
      element.className = 'qoala-proof-of-work';
      element.setAttribute('role', 'status');
      element.style.cssText = 'font: 14px system-ui, sans-serif; padding: 12px 0; text-align: center;';
      host.append(element);
      const widget: Widget = { id, element, params, controller: new AbortController(), token: undefined };
      widgets.set(id, widget);
      start(widget);
      return id;
    },
    execute(container, params) {
      const widget = [...widgets.values()].find(
        (w) => w.id === container || w.element.parentElement === container,
      );
      if (widget) start(widget);
      else if (params) this.render(container, params);
    },
    reset(widgetId) {
      const widget = find(widgetId);
      if (widget) start(widget);
    },
    remove(widgetId) {
      const widget = find(widgetId);
      if (!widget) return;
      widget.controller.abort();
      widget.element.remove();
      widgets.delete(widget.id);
    },
    getResponse(widgetId) {
      return find(widgetId)?.token;
    },
    isExpired() {
      return false;
    },
    ready(callback) {
      callback();
    },
  };
}

/**
 * Defines `window.turnstile` as the proof of work, unless something already did (a page that loaded
 * Cloudflare's own): clerk-js then uses it instead of loading Cloudflare's script.
 */
export function installProofOfWorkTurnstile(challengeUrl: string): void {
  const target = window as unknown as { turnstile?: TurnstileLike };
  if (target.turnstile) return;
  target.turnstile = createProofOfWorkTurnstile({ challengeUrl });
}
