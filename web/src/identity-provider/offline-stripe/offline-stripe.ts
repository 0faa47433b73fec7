import { CardForm, validateCard, wordsOf, type AppearanceVariables } from './offline-card-form.ts';

/**
 * A stand-in for Stripe.js, for instances whose payment gateway is the offline one (docs/billing.md). clerk-js
 * 5.90.0 loads Stripe.js through `@stripe/stripe-js`, which adds no js.stripe.com script when `window.Stripe`
 * is already there and calls `window.Stripe(publishableKey, { stripeAccount })`. Its vendored
 * react-stripe-js then accepts the object only if it has `elements`, `createToken`, `createPaymentMethod`
 * and `confirmCardPayment`; it calls `elements({ clientSecret, appearance })`, `elements.create('payment',
 * options)`, `element.mount(node)`, `element.on/off('ready'|'change'…)`, `element.update`,
 * `element.destroy`, and on submit `stripe.confirmSetup({ elements, confirmParams, redirect:
 * 'if_required' })`, whose `setupIntent.payment_method` becomes the payment token clerk-js sends the
 * Frontend API. clerk-js shows no error of its own when confirmSetup fails ("stripe will handle the
 * error"), so this form shows it, as Stripe's Payment Element does.
 *
 * The card goes to the instance's own offline gateway (identity's
 * `POST {fapi}/v1/commerce/offline_gateway/setup_intents/confirm`), never off the machine.
 */

type Listener = (...args: unknown[]) => void;

export interface SetupIntentResult {
  setupIntent?: { id: string; object: 'setup_intent'; status: string; payment_method: string };
  error?: { type: string; code?: string; message: string; param?: string };
}

/** Codes of the offline gateway that are about the card itself (Stripe's `card_error`). */
const CARD_ERROR_CODES = new Set([
  'card_declined',
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'invalid_number',
  'invalid_expiry_month',
  'invalid_expiry_year',
  'invalid_cvc',
  'processing_error',
  'insufficient_funds',
]);

class OfflineElement {
  private readonly listeners = new Map<string, Set<Listener>>();
  private form: CardForm | null = null;
  private node: HTMLElement | null = null;

  constructor(
    readonly elementType: string,
    private readonly group: OfflineElements,
  ) {}

  mount(target: HTMLElement | string): void {
    const node = typeof target === 'string' ? document.querySelector<HTMLElement>(target) : target;
    if (!node) throw new Error(`Stripe (offline): no element matches ${String(target)}.`);
    this.unmount();
    this.node = node;
    this.form = new CardForm(document, this.group.variables, (state) =>
      this.emit('change', {
        elementType: this.elementType,
        collapsed: false,
        value: { type: 'card' },
        ...state,
      }),
    );
    node.append(this.form.root);
    // Stripe's element reports ready once its iframe has loaded: always after mount returns.
    setTimeout(() => this.emit('ready', { elementType: this.elementType }), 0);
  }

  unmount(): void {
    this.form?.root.remove();
    this.form = null;
    this.node = null;
  }

  destroy(): void {
    this.unmount();
    this.listeners.clear();
    this.group.forget(this);
  }

  on(event: string, listener: Listener): this {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }

  once(event: string, listener: Listener): this {
    const wrapped: Listener = (...args) => {
      this.off(event, wrapped);
      listener(...args);
    };
    return this.on(event, wrapped);
  }

  off(event: string, listener?: Listener): this {
    if (listener) this.listeners.get(event)?.delete(listener);
    else this.listeners.delete(event);
    return this;
  }

  update(): void {}
  collapse(): this {
    return this;
  }
  focus(): void {
    this.form?.focus();
  }
  blur(): void {
    (document.activeElement as HTMLElement | null)?.blur?.();
  }
  clear(): void {
    this.form?.clear();
  }

  /** The form whose card confirmSetup sends (null before mount or after destroy). */
  cardForm(): CardForm | null {
    return this.node ? this.form : null;
  }

  private emit(event: string, payload: unknown): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(payload);
  }
}

class OfflineElements {
  private readonly elements = new Set<OfflineElement>();
  readonly clientSecret: string | undefined;
  readonly variables: AppearanceVariables;

  constructor(options: { clientSecret?: string; appearance?: { variables?: AppearanceVariables } } = {}) {
    this.clientSecret = options.clientSecret;
    this.variables = options.appearance?.variables ?? {};
  }

  create(type: string): OfflineElement {
    const element = new OfflineElement(type, this);
    this.elements.add(element);
    return element;
  }

  getElement(type: string): OfflineElement | null {
    return [...this.elements].find((e) => e.elementType === type) ?? null;
  }

  update(): void {}
  async fetchUpdates(): Promise<object> {
    return {};
  }
  async submit(): Promise<object> {
    return {};
  }

  forget(element: OfflineElement): void {
    this.elements.delete(element);
  }

  /** The mounted card form (the Payment Element's). */
  cardForm(): CardForm | null {
    for (const element of this.elements) {
      const form = element.cardForm();
      if (form) return form;
    }
    return null;
  }
}

const unsupported = async () => ({
  error: {
    type: 'invalid_request_error',
    message: 'The offline payment gateway only saves cards through the payment form.',
  },
});

/** Builds `window.Stripe` for an instance whose Frontend API is at `fapiBase` (e.g. `/__clerk`). */
export function createOfflineStripe(fapiBase: string, fetchImpl: typeof fetch = (...a) => fetch(...a)) {
  const confirmUrl = `${fapiBase.replace(/\/+$/, '')}/v1/commerce/offline_gateway/setup_intents/confirm`;

  async function confirmSetup(params: { elements?: OfflineElements }): Promise<SetupIntentResult> {
    const elements = params?.elements;
    const form = elements instanceof OfflineElements ? elements.cardForm() : null;
    if (!elements || !form || !elements.clientSecret) {
      return {
        error: {
          type: 'invalid_request_error',
          message: 'The payment form is not ready: no card form is mounted.',
        },
      };
    }
    const words = wordsOf(document);
    const card = form.fields();
    const invalid = validateCard(card, new Date());
    if (invalid) {
      const message = words[invalid.code];
      form.showError(message, invalid.field);
      return { error: { type: 'validation_error', code: invalid.code, message } };
    }
    form.showError(null);
    form.setDisabled(true);
    try {
      const response = await fetchImpl(confirmUrl, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_secret: elements.clientSecret,
          card_number: card.number,
          exp_month: card.expMonth,
          exp_year: card.expYear,
          cvc: card.cvc,
        }).toString(),
      });
      const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      if (response.ok && body && typeof body.payment_method === 'string' && typeof body.id === 'string') {
        return {
          setupIntent: {
            id: body.id,
            object: 'setup_intent',
            status: typeof body.status === 'string' ? body.status : 'succeeded',
            payment_method: body.payment_method,
          },
        };
      }
      const first = Array.isArray(body?.errors)
        ? (body.errors[0] as Record<string, unknown> | undefined)
        : undefined;
      const code = typeof first?.code === 'string' ? first.code : 'processing_error';
      const message =
        (typeof first?.long_message === 'string' && first.long_message) ||
        (typeof first?.message === 'string' && first.message) ||
        `The payment gateway answered ${response.status}.`;
      const meta = first?.meta as { param_name?: unknown } | undefined;
      const param = typeof meta?.param_name === 'string' ? meta.param_name : undefined;
      const field = param === 'cvc' ? 'cvc' : param?.startsWith('exp_') ? 'expiry' : 'number';
      form.showError(message, field);
      return {
        error: { type: CARD_ERROR_CODES.has(code) ? 'card_error' : 'validation_error', code, message, param },
      };
    } catch {
      const message = 'The payment gateway could not be reached. Try again.';
      form.showError(message);
      return { error: { type: 'api_connection_error', message } };
    } finally {
      form.setDisabled(false);
    }
  }

  return function Stripe(_publishableKey: string, _options?: { stripeAccount?: string }) {
    return {
      elements: (options?: ConstructorParameters<typeof OfflineElements>[0]) => new OfflineElements(options),
      confirmSetup,
      createToken: unsupported,
      createPaymentMethod: unsupported,
      confirmCardPayment: unsupported,
      confirmPayment: unsupported,
      confirmCardSetup: unsupported,
      retrieveSetupIntent: unsupported,
      registerAppInfo: () => undefined,
      _registerWrapper: () => undefined,
    };
  };
}
