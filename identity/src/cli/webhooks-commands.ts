import { parseArgs } from 'node:util';
import { onDatabase, UsageError, type CliCommand, type CliIo } from './cli-command.ts';
import {
  listDeliveries,
  listEndpoints,
  openWebhooksTarget,
  replayDelivery,
  replayEvent,
  replayRange,
} from './webhooks-admin.ts';

type WebhooksCommand =
  | { action: 'endpoints' }
  | {
      action: 'deliveries';
      endpointId?: string;
      eventId?: string;
      eventType?: string;
      status?: string;
      limit: number;
    }
  | { action: 'replay'; eventId: string; endpointId?: string }
  | { action: 'replay-delivery'; deliveryId: string }
  | { action: 'replay-range'; since: Date; until: Date; endpointId?: string };

/** `webhooks`: the endpoints, the deliveries and their attempts, replays (docs/webhooks.md). */
export const webhooksCommand: CliCommand = {
  name: 'webhooks',
  usage: `  webhooks endpoints
      Lists the webhook endpoints of the instance settings (docs/webhooks.md).

  webhooks deliveries [--endpoint <ep_…>] [--event <evt_…>] [--type <event type>]
                      [--status pending|delivered|failed] [--limit <n>]
      The newest deliveries (default 20) with every attempt: status, latency, the answer's start.

  webhooks replay <msg_…>
      Sends that delivery's event again to its endpoint (the Backend API's
      POST /v1/webhook_deliveries/:id/replay).

  webhooks replay <evt_…> [--endpoint <ep_…>]
  webhooks replay --since <time> [--until <time>] [--endpoint <ep_…>]
      Sends one event, or every event of a time range (ISO 8601, e.g. 2026-11-28T10:00:00Z; --until
      defaults to now), again: to --endpoint, or to the endpoints it went to and those subscribed now.
      The running servers deliver it within a second, with the same svix-id.
`,
  parse(rest) {
    const command = parseWebhooksCommand(rest);
    return (io) => webhooks(command, io);
  },
};

function parseWebhooksCommand(rest: string[]): WebhooksCommand {
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      endpoint: { type: 'string' },
      event: { type: 'string' },
      limit: { type: 'string' },
      type: { type: 'string' },
      status: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  const [action, ...args] = positionals;
  const endpointId = values.endpoint;
  if (endpointId !== undefined && !/^ep_[A-Za-z0-9_-]{1,64}$/.test(endpointId)) {
    throw new UsageError('--endpoint must be an endpoint id: ep_<name>.');
  }
  const time = (option: string, value: string): Date => {
    const date = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
      throw new UsageError(`${option} must be a time such as 2026-11-28T10:00:00Z.`);
    }
    return date;
  };
  if (action === 'endpoints' && !args.length) return { action };
  if (action === 'deliveries' && !args.length) {
    const limit = values.limit === undefined ? 20 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new UsageError('--limit must be a whole number from 1 to 1000.');
    }
    if (values.event !== undefined && !/^evt_[A-Za-z0-9]+$/.test(values.event)) {
      throw new UsageError('--event must be an event id: evt_….');
    }
    if (values.type !== undefined && !/^[a-zA-Z]+\.[a-zA-Z_]+$/.test(values.type)) {
      throw new UsageError('--type must be an event type: user.created, session.ended….');
    }
    if (values.status !== undefined && !['pending', 'delivered', 'failed'].includes(values.status)) {
      throw new UsageError('--status must be pending, delivered or failed.');
    }
    return {
      action,
      endpointId,
      eventId: values.event,
      eventType: values.type,
      status: values.status,
      limit,
    };
  }
  if (action === 'replay' && args.length === 1 && /^msg_/.test(args[0]!) && values.since === undefined) {
    if (!/^msg_[A-Za-z0-9]{1,64}$/.test(args[0]!) || endpointId !== undefined) {
      throw new UsageError('replay <msg_…> takes a delivery id and no --endpoint (it goes to its own).');
    }
    return { action: 'replay-delivery', deliveryId: args[0]! };
  }
  if (action === 'replay' && args.length === 1 && values.since === undefined) {
    if (!/^evt_[A-Za-z0-9]+$/.test(args[0]!)) throw new UsageError('replay takes an event id: evt_….');
    return { action, eventId: args[0]!, endpointId };
  }
  if (action === 'replay' && !args.length && values.since !== undefined) {
    const since = time('--since', values.since);
    const until = values.until === undefined ? new Date() : time('--until', values.until);
    if (until <= since) throw new UsageError('--until must come after --since.');
    return { action: 'replay-range', since, until, endpointId };
  }
  throw new UsageError(
    'webhooks takes "endpoints", "deliveries", "replay <evt_…>", "replay <msg_…>" or "replay --since <time> [--until <time>]".',
  );
}

async function webhooks(command: WebhooksCommand, io: CliIo): Promise<number> {
  return onDatabase(io, io.openWebhooks ?? openWebhooksTarget, async (db) => {
    const lines =
      command.action === 'endpoints'
        ? await listEndpoints(db, io.env)
        : command.action === 'deliveries'
          ? await listDeliveries(db, command)
          : command.action === 'replay'
            ? await replayEvent(db, command.eventId, command.endpointId, io.env)
            : command.action === 'replay-delivery'
              ? await replayDelivery(db, command.deliveryId)
              : await replayRange(db, command.since, command.until, command.endpointId, io.env);
    for (const line of lines) io.out(line);
    if (command.action !== 'endpoints' && command.action !== 'deliveries') {
      io.err(`${lines.length} deliver${lines.length === 1 ? 'y' : 'ies'} queued.`);
    }
  });
}
