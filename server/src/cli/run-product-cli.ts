import { createApp } from '../app.ts';
import { serverConfigFromEnv } from '../config.ts';
import { adoptMetadataHierarchy } from '../organizations/hierarchy-adoption.ts';
import { repairMetadata } from '../organizations/metadata-repair.ts';
import type { ProductHierarchy } from '../organizations/product-hierarchy.ts';
import type { OrganizationSubscriptions } from '../billing/organization-subscriptions.ts';

export const USAGE = `Usage: npm run product -- <command>

  repair-metadata   re-project the vCISO hierarchy and the subscription flag (derived again from the
                    provider's billing) into every organisation's public metadata, clearing links the
                    product database does not hold (adopts a metadata-only hierarchy first)
  import-metadata   adopt a hierarchy found only in organisation metadata, when none was adopted yet

Uses the server's settings: DATABASE_URL (else DATA_DIR), hosted Clerk keys when set.`;

interface Opened {
  hierarchy: ProductHierarchy;
  /** Absent: the subscription flags are not re-derived (a test that only checks the hierarchy). */
  subscriptions?: OrganizationSubscriptions;
  close(): Promise<void>;
}

export interface ProductCliIo {
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  err(line: string): void;
  /** The product's hierarchy as the server would open it; tests hand in a running server's. */
  open?: () => Promise<Opened>;
}

/**
 * Opens what the server opens — the product database and the Backend API (in embedded mode, the identity
 * provider itself, listening on a loopback port of its own) — without serving the web app or starting
 * the background workers. A PGlite directory is open in one process at a time: with PGlite, stop the
 * server first (with DATABASE_URL, servers may keep running).
 */
async function openLikeTheServer(env: NodeJS.ProcessEnv) {
  const config = serverConfigFromEnv({ ...env, PORT: '0', HOST: '127.0.0.1' });
  const app = await createApp(config, { logger: false, startWorkers: false, serveWeb: false });
  try {
    await app.listen();
  } catch (error) {
    await app.close();
    throw error;
  }
  return { hierarchy: app.hierarchy, subscriptions: app.subscriptions, close: () => app.close() };
}

/** Runs one command; answers the process exit code. */
export async function runProductCli(args: string[], io: ProductCliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help') {
    io.out(USAGE);
    return command === undefined ? 1 : 0;
  }
  if (command !== 'repair-metadata' && command !== 'import-metadata') {
    io.err(`Unknown command "${command}".\n\n${USAGE}`);
    return 1;
  }
  if (rest.length) {
    io.err(`"${command}" takes no arguments.`);
    return 1;
  }
  let opened: Opened;
  try {
    opened = await (io.open ?? (() => openLikeTheServer(io.env)))();
  } catch (error) {
    io.err(`Could not open the product database or the Backend API: ${(error as Error).message}`);
    return 1;
  }
  try {
    const { hierarchy } = opened;
    const adoption = await adoptMetadataHierarchy(hierarchy.db, hierarchy.organizations());
    if (adoption.adopted) {
      io.out(`Adopted ${adoption.links} link(s) from organisation metadata.`);
      for (const r of adoption.refused) io.out(`  left out ${r.childId} under ${r.parentId}: ${r.code}`);
    } else if (command === 'import-metadata') {
      io.out('The hierarchy was adopted before; nothing imported.');
    }
    // Either command ends with metadata matching the product database (what adoption queued included).
    const report = await repairMetadata(hierarchy, 5, opened.subscriptions);
    io.out(
      `Checked ${report.checked} organisation(s); ${report.drifted.length} re-projected` +
        (report.drifted.length ? `: ${report.drifted.join(', ')}` : '') +
        '.',
    );
    if (report.subscriptionsUnread.length) {
      io.err(
        `Subscriptions not read (the Backend API failed; flags kept as last derived): ${report.subscriptionsUnread.join(', ')}`,
      );
    }
    if (report.pending.length) {
      io.err(`Still queued (the Backend API kept failing; servers retry them): ${report.pending.join(', ')}`);
      return 2;
    }
    return 0;
  } catch (error) {
    io.err(`Failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await opened.close();
  }
}
