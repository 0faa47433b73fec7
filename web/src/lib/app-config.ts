import { localizedFetch } from './http/localized-fetch.ts';
import type { Language } from './i18n/languages.ts';

/** Runtime settings served by the product server, so one build runs against any environment. */
export interface AppConfig {
  publishableKey: string;
  proxyUrl: string | null;
  clerkJSUrl: string;
  identity: 'embedded' | 'hosted';
  devOutbox: boolean;
  /** The embedded instance's captcha provider: `proof_of_work` needs the page's own widget (identity-provider/captcha/). */
  captcha?: 'proof_of_work' | 'turnstile' | null;
  /**
   * Whether the instance bills, and through which gateway: `offline` needs the page's own Stripe.js
   * stand-in (identity-provider/offline-stripe/). Hosted Clerk: its settings are Clerk's, the gateway always Stripe.
   */
  billing?: { enabled: boolean; gateway: 'offline' | 'stripe' };
  /** The satellite domains' origins, where a sign-in started on a satellite may return (docs/satellites.md). */
  allowedRedirectOrigins?: string[];
}

export class AppConfigError extends Error {
  override name = 'AppConfigError';
}

const CONFIG_URL = '/app-config.json';
// Long enough for a cold server, short enough that a dead one produces an error screen, not a spinner.
const CONFIG_TIMEOUT_MS = 15_000;

/** GET /app-config.json, announcing the starting language like every product request (spec §7). */
export async function loadAppConfig(language: Language): Promise<AppConfig> {
  let response: Response;
  try {
    response = await localizedFetch(language)(CONFIG_URL, {
      headers: { Accept: 'application/json' },
      // A cached config could pair a stale publishable key with a fresh deployment.
      cache: 'no-store',
      signal: AbortSignal.timeout(CONFIG_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new AppConfigError(`Could not reach the server to load ${CONFIG_URL}.`, { cause });
  }
  if (!response.ok) {
    throw new AppConfigError(`The server answered ${response.status} for ${CONFIG_URL}.`);
  }

  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    throw new AppConfigError(`${CONFIG_URL} is not valid JSON.`, { cause });
  }
  return parseAppConfig(body);
}

function parseAppConfig(body: unknown): AppConfig {
  if (typeof body !== 'object' || body === null) {
    throw new AppConfigError(`${CONFIG_URL} is not a JSON object.`);
  }
  const raw = body as Record<string, unknown>;

  const publishableKey = raw.publishableKey;
  if (typeof publishableKey !== 'string' || publishableKey === '') {
    throw new AppConfigError(`${CONFIG_URL} has no publishableKey.`);
  }

  const proxyUrl = raw.proxyUrl ?? null;
  if (proxyUrl !== null && (typeof proxyUrl !== 'string' || proxyUrl === '')) {
    throw new AppConfigError(`${CONFIG_URL} has an invalid proxyUrl.`);
  }

  // Without clerkJSUrl the Clerk SDK silently falls back to a public CDN, which we must never use.
  const clerkJSUrl = raw.clerkJSUrl;
  if (typeof clerkJSUrl !== 'string' || clerkJSUrl === '') {
    throw new AppConfigError(`${CONFIG_URL} has no clerkJSUrl.`);
  }

  const identity = raw.identity;
  if (identity !== 'embedded' && identity !== 'hosted') {
    throw new AppConfigError(`${CONFIG_URL} has an unknown identity mode.`);
  }

  const captcha = raw.captcha === 'proof_of_work' || raw.captcha === 'turnstile' ? raw.captcha : null;
  const rawBilling = raw.billing as { enabled?: unknown; gateway?: unknown } | null | undefined;
  const billing =
    typeof rawBilling === 'object' && rawBilling !== null
      ? ({
          enabled: rawBilling.enabled === true,
          gateway: rawBilling.gateway === 'offline' ? 'offline' : 'stripe',
        } as const)
      : ({ enabled: false, gateway: 'stripe' } as const);
  return {
    publishableKey,
    proxyUrl,
    clerkJSUrl,
    identity,
    devOutbox: raw.devOutbox === true,
    captcha,
    billing,
    allowedRedirectOrigins: Array.isArray(raw.allowedRedirectOrigins)
      ? raw.allowedRedirectOrigins.filter((o): o is string => typeof o === 'string' && o !== '')
      : [],
  };
}
