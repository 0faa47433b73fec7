import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ConnectionUse } from '../db/database.ts';
import type { WorkLimiter } from '../crypto/work-limiter.ts';

/** The strategies a sign-in attempt is counted under; anything else is `other` (a bounded label set). */
const SIGN_IN_STRATEGIES = new Set([
  'password',
  'email_code',
  'phone_code',
  'email_link',
  'totp',
  'backup_code',
  'passkey',
  'web3_metamask_signature',
  'web3_coinbase_wallet_signature',
  'web3_okx_wallet_signature',
  'ticket',
  'saml',
  'enterprise_sso',
  'google_one_tap',
  'reset_password_email_code',
  'reset_password_phone_code',
]);

/** A strategy as a label value: one of Clerk's, `oauth_*` (a provider), or `other`. */
export function strategyLabel(strategy: unknown): string {
  if (typeof strategy !== 'string') return 'none';
  if (SIGN_IN_STRATEGIES.has(strategy)) return strategy;
  if (/^oauth_(custom_)?[a-z0-9_]{1,40}$/.test(strategy)) return 'oauth';
  return 'other';
}

/** Seconds: from a cached read (~1 ms) to an argon2 sign-in under load and a slow upstream (10 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's Prometheus metrics (docs/observability.md), one registry per server: `npm start` makes
 * one that the product server and its embedded identity provider share; the provider alone makes its own.
 * Counters are counted where things happen; gauges (queues, connections) are read at each scrape.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern (never the raw path) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly signInAttempts = new Counter({
    name: 'identity_sign_in_attempts_total',
    help: 'Sign-in factor attempts, by strategy and outcome (success: the factor was accepted; failure: refused).',
    labelNames: ['strategy', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly lockouts = new Counter({
    name: 'identity_lockouts_total',
    help: 'Accounts locked by too many failed verifications.',
    registers: [this.registry],
  });

  readonly sessionTokens = new Counter({
    name: 'identity_session_tokens_minted_total',
    help: 'Session tokens (JWTs) minted.',
    registers: [this.registry],
  });

  private readonly databases = new Map<string, () => ConnectionUse | undefined>();
  /** What the gauges below read at each scrape, given by the parts that own it. */
  private readonly sources: {
    webhookQueue: (() => Promise<{ events: number; deliveries: number }>) | null;
    passwordHashing: WorkLimiter | null;
  } = { webhookQueue: null, passwordHashing: null };

  constructor() {
    const databases = this.databases;
    new Gauge({
      name: 'database_connections',
      help: 'Database connections, by database (identity, product) and state (max, open, busy, waiting).',
      labelNames: ['database', 'state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [database, use] of databases) {
          const now = use();
          if (!now) continue;
          for (const state of ['max', 'open', 'busy', 'waiting'] as const)
            this.set({ database, state }, now[state]);
        }
      },
    });
    const sources = this.sources;
    new Gauge({
      name: 'identity_webhook_queue_depth',
      help: 'Webhook work not done: events not fanned out to endpoints, deliveries pending (due or to retry).',
      labelNames: ['stage'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const pending = sources.webhookQueue;
        if (!pending) return;
        // A database that is down is readiness's to say; the scrape still answers the other metrics.
        const work = await pending().catch(() => null);
        if (!work) return;
        this.set({ stage: 'fan_out' }, work.events);
        this.set({ stage: 'delivery' }, work.deliveries);
      },
    });
    new Gauge({
      name: 'identity_password_hash_queue',
      help: 'Argon2 password hashes and checks: running, and waiting for a slot.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const limiter = sources.passwordHashing;
        if (!limiter) return;
        this.set({ state: 'running' }, limiter.running);
        this.set({ state: 'waiting' }, limiter.waiting);
      },
    });
  }

  /** Reports `database`'s connections at each scrape (a database without `connections()` reports none). */
  observeDatabase(database: 'identity' | 'product', db: { connections?: () => ConnectionUse }): void {
    this.databases.set(database, () => db.connections?.());
  }

  observeWebhookQueue(pending: () => Promise<{ events: number; deliveries: number }>): void {
    this.sources.webhookQueue = pending;
  }

  observePasswordHashing(limiter: WorkLimiter): void {
    this.sources.passwordHashing = limiter;
  }

  /** The exposition, with Node's own metrics: Prometheus's text format. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([processRegistry(), this.registry]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}

let nodeMetrics: Registry | null = null;

/**
 * Node's default metrics (CPU, memory, event loop lag, handles, GC), once per process: they describe the
 * process, and each collection starts its own event-loop monitor, which the tests' many servers would
 * otherwise multiply.
 */
function processRegistry(): Registry {
  if (!nodeMetrics) {
    nodeMetrics = new Registry();
    collectDefaultMetrics({ register: nodeMetrics });
  }
  return nodeMetrics;
}
