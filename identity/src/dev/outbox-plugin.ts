import { z } from '@app/contract';
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { errorBody, errors } from '../errors.ts';
import type { RouteDeclaration } from '../http/route-declaration.ts';
import type { Database } from '../db/database.ts';
import { listOutbox } from '../store/outbox.ts';
import type { Webhooks } from '../webhooks/webhooks.ts';
import { webhookOutboxHandlers } from './webhook-outbox.ts';
import { isLoopbackRequest } from './loopback.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Development outbox: `/mail` and `/sms` as JSON (newest first), `/mail.html` and `/sms.html` for people.
 * Registered only in development mode, never in production, and each channel only while it is captured
 * (mail without SMTP, SMS without Twilio). Only clients on this machine see it unless `public`; others
 * get the answer of an unknown path, so that it is not advertised.
 */
type Channel = 'mail' | 'sms';

/** What the outbox's handlers read: the captured messages, and the webhook page's handlers when shown. */
interface OutboxContext {
  list: (channel: Channel, to: string | undefined) => ReturnType<typeof listOutbox>;
  webhooks: ReturnType<typeof webhookOutboxHandlers> | null;
}

/**
 * A route of the development outbox (not an API: a page for the developer), declared like every route.
 * `shows` is what must be captured for it to be registered. Only this machine's clients reach it unless
 * DEV_OUTBOX_PUBLIC (`permission: 'loopback'`).
 */
export interface DevOutboxRoute extends RouteDeclaration {
  method: 'GET';
  shows: Channel | 'webhooks';
  handler: (ctx: OutboxContext) => RouteHandlerMethod;
}

const byRecipient = { query: z.looseObject({ to: z.string().optional() }) };

const channelPage =
  (channel: Channel) =>
  (ctx: OutboxContext): RouteHandlerMethod =>
  async (_req, reply) => {
    const rows = await ctx.list(channel, undefined);
    const items = rows
      .map(
        (
          r,
        ) => `<article><header><strong>${escapeHtml(r.recipient)}</strong> · <time>${r.created_at.toISOString()}</time></header>
${r.subject ? `<h2>${escapeHtml(r.subject)}</h2>` : ''}<pre>${escapeHtml(r.text_body)}</pre></article>`,
      )
      .join('\n');
    return reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development outbox: ${channel}</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}</style>
</head><body><h1>Development outbox: ${channel}</h1><p>Messages captured instead of sent (development mode, no ${channel === 'mail' ? 'SMTP' : 'SMS sender'} configured). Newest first.</p>
${items || '<p>No messages yet.</p>'}</body></html>`);
  };

const outboxRoute = (
  path: string,
  shows: DevOutboxRoute['shows'],
  handler: DevOutboxRoute['handler'],
  input: DevOutboxRoute['input'] = {},
): DevOutboxRoute => ({ method: 'GET', path, auth: 'none', permission: 'loopback', input, shows, handler });

/** Every route of the development outbox, under its prefix (`/__dev`): the only place one is declared. */
export const devOutboxRoutes: readonly DevOutboxRoute[] = [
  outboxRoute(
    '/mail',
    'mail',
    (ctx) => async (req, reply) => {
      if (wantsHtml(req.headers.accept)) return reply.redirect(`${req.url.split('?')[0]}.html`);
      const rows = await ctx.list('mail', (req.query as { to?: string }).to);
      return rows.map((r) => ({
        to: r.recipient,
        subject: r.subject,
        text: r.text_body,
        html: r.html_body,
        created_at: r.created_at.toISOString(),
      }));
    },
    byRecipient,
  ),
  outboxRoute(
    '/sms',
    'sms',
    (ctx) => async (req, reply) => {
      if (wantsHtml(req.headers.accept)) return reply.redirect(`${req.url.split('?')[0]}.html`);
      // Any formatting of the number, and the "+" a query string turns into a space, finds it.
      const query = (req.query as { to?: string }).to;
      const to = query === undefined ? undefined : `+${query.replace(/\D/g, '')}`;
      const rows = await ctx.list('sms', to);
      return rows.map((r) => ({
        to: r.recipient,
        text: r.text_body,
        created_at: r.created_at.toISOString(),
      }));
    },
    byRecipient,
  ),
  outboxRoute('/webhooks', 'webhooks', (ctx) => ctx.webhooks!.json),
  outboxRoute('/webhooks.html', 'webhooks', (ctx) => ctx.webhooks!.html),
  outboxRoute('/mail.html', 'mail', channelPage('mail')),
  outboxRoute('/sms.html', 'sms', channelPage('sms')),
];

/**
 * Development outbox: `/mail` and `/sms` as JSON (newest first), `/mail.html` and `/sms.html` for people.
 * Registered only in development mode, never in production, and each channel only while it is captured
 * (mail without SMTP, SMS without Twilio). Only clients on this machine see it unless `public`; others
 * get the answer of an unknown path, so that it is not advertised. The declared query is checked once
 * here (a repeated `to` is 422).
 */
export async function devOutboxPlugin(
  app: FastifyInstance,
  opts: {
    db: Database;
    channels: { mail: boolean; sms: boolean };
    public: boolean;
    /** Webhook events and their deliveries (`/webhooks`, `/webhooks.html`), where the outbox is. */
    webhooks?: Webhooks;
  },
) {
  if (!opts.public)
    app.addHook('onRequest', async (req, reply) => {
      if (!isLoopbackRequest(req)) return reply.callNotFound();
    });
  const ctx: OutboxContext = {
    list: (channel, to) => listOutbox(opts.db, channel, to),
    webhooks: opts.webhooks ? webhookOutboxHandlers(opts.webhooks, PAGE_HEADERS, wantsHtml) : null,
  };
  const shown = { mail: opts.channels.mail, sms: opts.channels.sms, webhooks: !!opts.webhooks };
  for (const route of devOutboxRoutes) {
    if (!shown[route.shows]) continue;
    const handler = route.handler(ctx);
    const query = route.input.query;
    app.route({
      method: route.method,
      url: route.path,
      handler: query
        ? async function (this: FastifyInstance, req, reply) {
            const parsed = query.safeParse(req.query ?? {});
            if (!parsed.success) {
              const err = errors.paramValueInvalid('to', 'Give one value.');
              return reply.code(err.status).send(errorBody(err));
            }
            return handler.call(this, req, reply);
          }
        : handler,
    });
  }
}

/** The views are static text: no script, no frame, no referrer, also on the standalone provider. */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Browsers ask for HTML first; scripts and tests get JSON. */
function wantsHtml(accept: string | undefined): boolean {
  return !!accept && accept.startsWith('text/html');
}
