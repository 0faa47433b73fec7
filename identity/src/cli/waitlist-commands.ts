import { parseArgs } from 'node:util';
import { DatabaseInUseError } from '../db/pglite-lock.ts';
import { WAITLIST_ENTRY_STATUSES, type WaitlistEntryStatus } from '../store/waitlist.ts';
import { CliError } from './actor-token-admin.ts';
import { UsageError, type CliCommand, type CliIo } from './cli-command.ts';
import { openWaitlistAdmin, type WaitlistAdmin, type WaitlistEntrySummary } from './waitlist-admin.ts';

type WaitlistCommand =
  | { action: 'list'; status?: WaitlistEntryStatus; query?: string; limit: number }
  | { action: 'invite' | 'reject'; entry: string };

/** `waitlist`: the waitlist's entries, invited or rejected (docs/sign-up-modes.md). */
export const waitlistCommand: CliCommand = {
  name: 'waitlist',
  usage: `  waitlist list [--status pending|invited|completed|rejected] [--query <text>] [--limit <n>]
      The waitlist's entries, oldest first (docs/sign-up-modes.md).

  waitlist invite <wle_… or email>
  waitlist reject <wle_… or email>
      Invites an entry (an invitation mail whose link opens sign-up) or rejects it.
`,
  parse(rest) {
    const command = parseWaitlistCommand(rest);
    return (io) => waitlist(command, io);
  },
};

function parseWaitlistCommand(rest: string[]): WaitlistCommand {
  const { values, positionals } = parseArgs({
    args: rest,
    options: { status: { type: 'string' }, query: { type: 'string' }, limit: { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  const [action, ...args] = positionals;
  if (action === 'list' && !args.length) {
    const status = values.status as WaitlistEntryStatus | undefined;
    if (status !== undefined && !WAITLIST_ENTRY_STATUSES.includes(status)) {
      throw new UsageError(`--status must be one of ${WAITLIST_ENTRY_STATUSES.join(', ')}.`);
    }
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500)
      throw new UsageError('--limit must be from 1 to 500.');
    return { action, status, query: values.query, limit };
  }
  if (
    (action === 'invite' || action === 'reject') &&
    args.length === 1 &&
    !values.status &&
    !values.query &&
    !values.limit
  ) {
    return { action, entry: args[0]! };
  }
  throw new UsageError(
    'waitlist takes "list [--status …] [--query …] [--limit n]", "invite <wle_… or email>" or "reject <wle_… or email>".',
  );
}

async function waitlist(command: WaitlistCommand, io: CliIo): Promise<number> {
  const line = (e: WaitlistEntrySummary) =>
    `${e.id}  ${e.status.padEnd(9)}  ${new Date(e.created_at).toISOString()}  ${e.email_address}` +
    (e.invitation ? `  invitation: ${e.invitation.id} ${e.invitation.status}` : '');
  let admin: WaitlistAdmin | null = null;
  try {
    admin = await (io.openWaitlist ?? openWaitlistAdmin)(io.env);
    if (command.action === 'list') {
      const page = await admin.list(command);
      for (const e of page.data) io.out(line(e));
      io.err(
        `${page.data.length} of ${page.total} entr${page.total === 1 ? 'y' : 'ies'} (via ${admin.via}).`,
      );
    } else {
      const entry =
        command.action === 'invite' ? await admin.invite(command.entry) : await admin.reject(command.entry);
      io.out(line(entry));
      if (command.action === 'invite')
        io.err(`Invitation mailed to ${entry.email_address} (via ${admin.via}).`);
    }
    return 0;
  } catch (err) {
    if (err instanceof CliError || err instanceof DatabaseInUseError) io.err(err.message);
    else io.err(`Failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await admin?.close();
  }
}
