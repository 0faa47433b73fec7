import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A form body as Stripe reads it: bracket notation (`metadata[payer_id]`, `allowed_payment_method_types[0]`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StripeForm = Record<string, any>;

export interface StandInRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The `Stripe-Account` header: which account the call acts for. */
  stripeAccount: string | undefined;
  form: StripeForm;
}

interface Answer {
  status: number;
  body: unknown;
}

interface PaymentMethod {
  id: string;
  customer: string | null;
  brand: string;
  last4: string;
}

/**
 * A local stand-in of Stripe's API (https://docs.stripe.com/api), speaking as much of it as billing's
 * Stripe gateway uses, the way Stripe does: form bodies in bracket notation, `Authorization: Bearer
 * <secret key>`, an `Idempotency-Key` answered again with the first answer (the same key with other
 * parameters is an `idempotency_error`), errors as `{error: {type, code, decline_code, message}}` (402
 * for a card error). Payment method ids ending `_chargeDeclined` are declined when charged, as Stripe's
 * test card 4000 0000 0000 0341 is. `failWith` makes every answer a 5xx (Stripe down).
 *
 * `confirmSetup` plays Stripe.js in the browser: it confirms a setup intent with a new card, which
 * attaches the card to the intent's customer.
 */
export class StripeStandIn {
  readonly requests: StandInRequest[] = [];
  failWith: number | null = null;
  readonly customers = new Map<string, StripeForm>();
  readonly setupIntents = new Map<string, StripeForm>();
  readonly paymentMethods = new Map<string, PaymentMethod>();
  readonly paymentIntents = new Map<string, StripeForm>();
  readonly refunds = new Map<string, StripeForm>();
  private readonly replays = new Map<string, { request: string; answer: Answer }>();

  private constructor(
    private readonly server: Server,
    readonly secretKey: string,
  ) {}

  static async start(secretKey: string): Promise<StripeStandIn> {
    let standIn: StripeStandIn | null = null;
    const server = createServer(async (req, res) => {
      const answer = standIn!.answer(req, await readBody(req));
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': newId('req') });
      res.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn = new StripeStandIn(server, secretKey);
    return standIn;
  }

  /** `billing.gateway.apiBase` pointing here. */
  get apiBase(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** What Stripe.js does when the browser confirms a setup intent with a card: the card's `pm_…`. */
  confirmSetup(
    setupIntentId: string,
    card: { brand?: string; last4?: string; declines?: boolean } = {},
  ): string {
    const intent = this.setupIntents.get(setupIntentId);
    if (!intent) throw new Error(`no setup intent ${setupIntentId}`);
    const id = newId('pm') + (card.declines ? '_chargeDeclined' : '');
    this.paymentMethods.set(id, {
      id,
      customer: intent.customer ?? null,
      brand: card.brand ?? 'visa',
      last4: card.last4 ?? '4242',
    });
    Object.assign(intent, { status: 'succeeded', payment_method: id });
    return id;
  }

  /** Requests to one path (`POST /v1/payment_intents`). */
  requestsTo(method: string, path: string): StandInRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(req: IncomingMessage, body: string): Answer {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const request: StandInRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      authorization: header(req, 'authorization'),
      idempotencyKey: header(req, 'idempotency-key'),
      stripeAccount: header(req, 'stripe-account'),
      form: parseStripeForm(req.method === 'GET' ? url.search.slice(1) : body),
    };
    this.requests.push(request);
    if (this.failWith)
      return { status: this.failWith, body: apiError('api_error', 'Stripe is down (stand-in).') };
    if (request.authorization !== `Bearer ${this.secretKey}`) {
      return { status: 401, body: apiError('invalid_request_error', 'Invalid API Key provided.') };
    }
    const key = request.idempotencyKey;
    if (request.method === 'POST' && key) {
      const seen = this.replays.get(key);
      const fingerprint = `${request.path} ${body}`;
      if (seen) {
        return seen.request === fingerprint
          ? seen.answer
          : {
              status: 400,
              body: apiError(
                'idempotency_error',
                'Keys for idempotent requests can only be used with the same parameters.',
              ),
            };
      }
      const answer = this.route(request);
      // Stripe keeps the answer of a request it ran, errors included, but not a 5xx.
      if (answer.status < 500) this.replays.set(key, { request: fingerprint, answer });
      return answer;
    }
    return this.route(request);
  }

  private route(r: StandInRequest): Answer {
    const [, version, resource, id, action] = r.path.split('/');
    if (version !== 'v1') return notFound('path');
    const f = r.form;
    if (r.method === 'POST' && resource === 'customers' && !id) {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        email: f.email ?? null,
        name: f.name ?? null,
        metadata: f.metadata ?? {},
      };
      this.customers.set(customer.id, customer);
      return ok(customer);
    }
    if (resource === 'setup_intents') {
      if (r.method === 'POST' && !id) {
        if (!f.customer || !this.customers.has(f.customer)) return notFound('customer', 'customer');
        const seti = newId('seti');
        const intent = {
          id: seti,
          object: 'setup_intent',
          client_secret: `${seti}_secret_${randomBytes(12).toString('hex')}`,
          customer: f.customer,
          usage: f.usage ?? 'off_session',
          allowed_payment_method_types: f.allowed_payment_method_types ?? ['card'],
          status: 'requires_payment_method',
          payment_method: null,
          metadata: f.metadata ?? {},
        };
        this.setupIntents.set(seti, intent);
        return ok(intent);
      }
      if (r.method === 'GET' && id && !action) {
        const intent = this.setupIntents.get(id);
        return intent ? ok(intent) : notFound('setup_intent', 'intent');
      }
    }
    if (resource === 'payment_methods' && id) {
      const method = this.paymentMethods.get(id);
      if (!method) return notFound('payment_method', 'payment_method');
      if (r.method === 'GET' && !action) return ok(paymentMethodJSON(method));
      if (r.method === 'POST' && action === 'detach') {
        if (!method.customer) {
          return {
            status: 400,
            body: apiError(
              'invalid_request_error',
              'The payment method you provided is not attached to a customer so detachment is impossible.',
            ),
          };
        }
        method.customer = null;
        return ok(paymentMethodJSON(method));
      }
    }
    if (r.method === 'POST' && resource === 'payment_intents' && !id) return this.createPaymentIntent(f);
    if (r.method === 'POST' && resource === 'refunds' && !id) {
      const intent = this.paymentIntents.get(f.payment_intent);
      if (!intent) return notFound('payment_intent', 'payment_intent');
      const refund = {
        id: newId('re'),
        object: 'refund',
        payment_intent: intent.id,
        amount: Number(f.amount ?? intent.amount),
        currency: intent.currency,
        status: 'succeeded',
      };
      this.refunds.set(refund.id, refund);
      return ok(refund);
    }
    return notFound('path');
  }

  private createPaymentIntent(f: StripeForm): Answer {
    const amount = Number(f.amount);
    if (!Number.isInteger(amount) || amount < 1) return invalid('amount', 'Invalid integer.');
    if (!/^[a-z]{3}$/.test(f.currency ?? '')) return invalid('currency', 'Invalid currency.');
    const method = this.paymentMethods.get(f.payment_method);
    if (!method) return notFound('payment_method', 'payment_method');
    if (!f.customer || method.customer !== f.customer) {
      return invalid('payment_method', 'The provided PaymentMethod does not belong to the Customer.');
    }
    const intent = {
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      currency: f.currency,
      customer: f.customer,
      payment_method: method.id,
      description: f.description ?? null,
      metadata: f.metadata ?? {},
      status: 'succeeded',
      last_payment_error: null as null | Record<string, string>,
      latest_charge: newId('ch') as string | null,
    };
    if (method.id.endsWith('_chargeDeclined')) {
      const error = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      };
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: error,
        latest_charge: null,
      });
      this.paymentIntents.set(intent.id, intent);
      return { status: 402, body: { error: { ...error, payment_intent: intent } } };
    }
    this.paymentIntents.set(intent.id, intent);
    return ok(intent);
  }
}

function paymentMethodJSON(method: PaymentMethod) {
  return {
    id: method.id,
    object: 'payment_method',
    type: 'card',
    customer: method.customer,
    card: { brand: method.brand, last4: method.last4, exp_month: 12, exp_year: 2034, wallet: null },
  };
}

/**
 * Stripe's bracket notation: `a[b]=1&a[c][0]=x` is `{a: {b: '1', c: ['x']}}`. Numeric keys make arrays.
 */
export function parseStripeForm(body: string): StripeForm {
  const root: StripeForm = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const path = [name.replace(/\[.*$/, ''), ...[...name.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!)];
    let node: StripeForm = root;
    path.forEach((key, i) => {
      if (i === path.length - 1) {
        node[key] = value;
        return;
      }
      node[key] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
      node = node[key];
    });
  }
  return root;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const ok = (body: unknown): Answer => ({ status: 200, body });
const apiError = (type: string, message: string, extra: Record<string, string> = {}) => ({
  error: { type, message, ...extra },
});
const invalid = (param: string, message: string): Answer => ({
  status: 400,
  body: apiError('invalid_request_error', message, { param }),
});
const notFound = (what: string, param?: string): Answer => ({
  status: 404,
  body: apiError('invalid_request_error', `No such ${what}.`, {
    code: 'resource_missing',
    ...(param ? { param } : {}),
  }),
});
