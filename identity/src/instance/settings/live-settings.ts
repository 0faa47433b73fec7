import type { Database } from '../../db/database.ts';
import { parseClaimsTemplate, type ClaimsTemplate } from './claims-template.ts';
import type { InstanceSettings } from './schema.ts';
import {
  readInstanceSettings,
  storedSettingsVersion,
  writeInstanceSettings,
  writeInstanceSettingsAtVersion,
  type StoredInstanceSettings,
} from '../../store/instance-settings.ts';

/** How often a process compares its settings version with the database's. */
export const SETTINGS_POLL_MS = 5000;

export type SettingsListener = (current: StoredInstanceSettings) => void;

/**
 * The settings this process runs with, kept in memory: token minting and the environment read them
 * without a query. They change when this process stores new ones (`set`) and when another process did
 * (`refresh`, run every SETTINGS_POLL_MS by `watch`); either way the listeners hear of it once.
 *
 * Why a version check rather than PostgreSQL's LISTEN/NOTIFY: changes are rare operator actions; a
 * primary-key read of one integer every few seconds costs nothing next to the requests; it needs no
 * connection held out of the pool, survives a dropped connection or a failover without a missed
 * notification, and runs the same on PGlite. The price is a few seconds before other processes follow.
 */
export class LiveInstanceSettings {
  private readonly listeners = new Set<SettingsListener>();
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private claims: ClaimsTemplate;

  constructor(
    private readonly db: Database,
    private state: StoredInstanceSettings,
    private readonly clock: () => Date,
  ) {
    this.claims = parseClaimsTemplate(state.settings.sessionToken.claims);
  }

  get settings(): InstanceSettings {
    return this.state.settings;
  }

  /** Moves with every change; consumers holding something built from the settings compare it. */
  get version(): number {
    return this.state.version;
  }

  get updatedAt(): Date {
    return this.state.updatedAt;
  }

  /** The session token's claims template, parsed once per change. */
  get sessionTokenClaims(): ClaimsTemplate {
    return this.claims;
  }

  /** Calls `listener` after each change, in this process or another; answers the way to stop. */
  onChanged(listener: SettingsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Validates and stores `value`, then applies it here at once (others follow within SETTINGS_POLL_MS). */
  async set(value: unknown): Promise<StoredInstanceSettings> {
    this.apply(await writeInstanceSettings(this.db, value, this.clock()));
    return this.state;
  }

  /**
   * Stores `value` if the stored version is still `expectedVersion` (the Backend API's optimistic guard),
   * through `db` (the caller's, which records the audit event with the change); `beforeCommit` runs last in
   * its transaction. Applied here at once, as `set`; answers the version found instead when it moved.
   */
  async setAtVersion(
    value: unknown,
    expectedVersion: number | null,
    opts: { db?: Database; beforeCommit?: (stored: StoredInstanceSettings) => void } = {},
  ): Promise<{ stored: StoredInstanceSettings } | { conflict: number }> {
    const result = await writeInstanceSettingsAtVersion(
      opts.db ?? this.db,
      value,
      expectedVersion,
      this.clock(),
      opts.beforeCommit,
    );
    if ('stored' in result) this.apply(result.stored);
    return result;
  }

  /** Reloads when the stored version differs from ours; answers whether it did. */
  async refresh(): Promise<boolean> {
    const version = await storedSettingsVersion(this.db);
    if (version === null || version === this.state.version) return false;
    const stored = await readInstanceSettings(this.db);
    if (!stored) return false;
    return this.apply(stored);
  }

  /** Starts the periodic version check; failures are reported and the next round tries again. */
  watch(onError: (err: Error) => void, intervalMs = SETTINGS_POLL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.checking) return;
      this.checking = this.refresh()
        .then(
          () => {},
          (err: Error) => {
            // A check that was running when the provider stopped meets a closed database: not a failure.
            if (this.timer) onError(err);
          },
        )
        .finally(() => {
          this.checking = null;
        });
    }, intervalMs);
    this.timer.unref();
  }

  /** Ends the periodic check, after the one running (if any), so the database can close under none. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking;
  }

  private apply(stored: StoredInstanceSettings): boolean {
    if (stored.version === this.state.version) return false;
    this.claims = parseClaimsTemplate(stored.settings.sessionToken.claims);
    this.state = stored;
    for (const listener of this.listeners) {
      try {
        listener(stored);
      } catch (err) {
        // One consumer's failure must not keep the others on stale settings.
        console.warn(`identity: an instance settings listener failed: ${(err as Error).message}`);
      }
    }
    return true;
  }
}
