/**
 * The card form the offline Stripe.js stand-in mounts (offline-stripe.ts): number, expiry (MM/YY) and CVC,
 * each a labelled input, plus an alert line for what went wrong. Plain DOM, since it lives inside clerk-js's
 * checkout drawer, not in our React tree. Labels follow the page's language (`<html lang>`), as Stripe's
 * Payment Element follows the browser's.
 */

export interface CardFields {
  number: string;
  expMonth: string;
  expYear: string;
  cvc: string;
}

export interface CardFormState {
  empty: boolean;
  complete: boolean;
}

/** Stripe's appearance variables that clerk-js passes (shared/react/commerce.tsx); the ones used here. */
export interface AppearanceVariables {
  colorPrimary?: string;
  colorBackground?: string;
  colorText?: string;
  colorTextSecondary?: string;
  colorDanger?: string;
  fontFamily?: string;
  fontSizeBase?: string;
  borderRadius?: string;
}

const WORDS = {
  en: {
    legend: 'Card',
    number: 'Card number',
    expiry: 'Expiration date (MM/YY)',
    cvc: 'Security code (CVC)',
    test: 'Test card form: this instance uses the offline payment gateway. No real card is charged.',
    incomplete_number: 'Your card number is incomplete.',
    invalid_number: 'Your card number is invalid.',
    incomplete_expiry: "Your card's expiration date is incomplete.",
    invalid_expiry_month: "Your card's expiration date is invalid.",
    invalid_expiry_year_past: "Your card's expiration year is in the past.",
    incomplete_cvc: "Your card's security code is incomplete.",
  },
  fr: {
    legend: 'Carte',
    number: 'Numéro de carte',
    expiry: "Date d'expiration (MM/AA)",
    cvc: 'Code de sécurité (CVC)',
    test: 'Formulaire de carte de test : cette instance utilise la passerelle de paiement hors ligne. Aucune carte réelle n’est débitée.',
    incomplete_number: 'Le numéro de carte est incomplet.',
    invalid_number: 'Le numéro de carte est invalide.',
    incomplete_expiry: "La date d'expiration de la carte est incomplète.",
    invalid_expiry_month: "La date d'expiration de la carte est invalide.",
    invalid_expiry_year_past: "L'année d'expiration de la carte est passée.",
    incomplete_cvc: 'Le code de sécurité de la carte est incomplet.',
  },
} as const;
export type CardErrorCode = Exclude<
  keyof (typeof WORDS)['en'],
  'legend' | 'number' | 'expiry' | 'cvc' | 'test'
>;

export function wordsOf(doc: Document) {
  return doc.documentElement.lang.toLowerCase().startsWith('fr') ? WORDS.fr : WORDS.en;
}

let formCount = 0;

export class CardForm {
  readonly root: HTMLFieldSetElement;
  private readonly numberInput: HTMLInputElement;
  private readonly expiryInput: HTMLInputElement;
  private readonly cvcInput: HTMLInputElement;
  private readonly alert: HTMLParagraphElement;

  constructor(
    doc: Document,
    variables: AppearanceVariables,
    private readonly onChange: (state: CardFormState) => void,
  ) {
    const words = wordsOf(doc);
    const id = `qoala-offline-card-${++formCount}`;
    this.root = doc.createElement('fieldset');
    this.root.className = 'qoala-offline-card';
    this.root.setAttribute('data-testid', 'offline-card-form');
    Object.assign(this.root.style, {
      border: '0',
      margin: '0',
      padding: '0',
      display: 'grid',
      gap: '0.75rem',
      gridTemplateColumns: '1fr 1fr',
      fontFamily: variables.fontFamily ?? 'inherit',
      fontSize: variables.fontSizeBase ?? 'inherit',
      color: variables.colorText ?? 'inherit',
    } satisfies Partial<CSSStyleDeclaration>);
    const legend = doc.createElement('legend');
    legend.textContent = words.legend;
    Object.assign(legend.style, { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden' });
    this.root.append(legend);

    const field = (name: string, label: string, attrs: Record<string, string>, wide: boolean) => {
      const wrap = doc.createElement('div');
      Object.assign(wrap.style, { display: 'grid', gap: '0.25rem', gridColumn: wide ? '1 / -1' : 'auto' });
      const labelEl = doc.createElement('label');
      labelEl.htmlFor = `${id}-${name}`;
      labelEl.textContent = label;
      Object.assign(labelEl.style, {
        fontSize: '0.8125rem',
        color: variables.colorTextSecondary ?? 'inherit',
      });
      const input = doc.createElement('input');
      input.id = `${id}-${name}`;
      input.name = name;
      input.type = 'text';
      input.inputMode = 'numeric';
      input.spellcheck = false;
      for (const [key, value] of Object.entries(attrs)) input.setAttribute(key, value);
      Object.assign(input.style, {
        font: 'inherit',
        padding: '0.5rem 0.75rem',
        border: '1px solid rgba(0,0,0,0.2)',
        borderRadius: variables.borderRadius ?? '0.375rem',
        background: variables.colorBackground ?? '#fff',
        color: variables.colorText ?? 'inherit',
        minWidth: '0',
      } satisfies Partial<CSSStyleDeclaration>);
      input.addEventListener('input', () => this.changed());
      wrap.append(labelEl, input);
      this.root.append(wrap);
      return input;
    };
    this.numberInput = field(
      'cardnumber',
      words.number,
      { autocomplete: 'cc-number', placeholder: '1234 1234 1234 1234', maxlength: '23' },
      true,
    );
    this.expiryInput = field(
      'exp-date',
      words.expiry,
      { autocomplete: 'cc-exp', placeholder: 'MM / YY', maxlength: '7' },
      false,
    );
    this.cvcInput = field(
      'cvc',
      words.cvc,
      { autocomplete: 'cc-csc', placeholder: 'CVC', maxlength: '4' },
      false,
    );
    this.numberInput.addEventListener('input', () => {
      const digits = this.numberInput.value.replace(/\D/g, '').slice(0, 19);
      this.numberInput.value = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
    });
    this.expiryInput.addEventListener('input', (event) => {
      const digits = this.expiryInput.value.replace(/\D/g, '').slice(0, 4);
      const deleting = (event as InputEvent).inputType?.startsWith('delete');
      this.expiryInput.value =
        digits.length > 2 || (digits.length === 2 && !deleting)
          ? `${digits.slice(0, 2)} / ${digits.slice(2)}`
          : digits;
    });
    this.cvcInput.addEventListener('input', () => {
      this.cvcInput.value = this.cvcInput.value.replace(/\D/g, '').slice(0, 4);
    });

    this.alert = doc.createElement('p');
    this.alert.setAttribute('role', 'alert');
    this.alert.setAttribute('data-testid', 'offline-card-error');
    Object.assign(this.alert.style, {
      gridColumn: '1 / -1',
      margin: '0',
      minHeight: '1em',
      color: variables.colorDanger ?? '#b91c1c',
      fontSize: '0.8125rem',
    });
    const note = doc.createElement('p');
    note.textContent = words.test;
    Object.assign(note.style, {
      gridColumn: '1 / -1',
      margin: '0',
      fontSize: '0.75rem',
      color: variables.colorTextSecondary ?? 'inherit',
    });
    this.root.append(this.alert, note);
  }

  /** The fields as typed, digits only. */
  fields(): CardFields {
    const expiry = this.expiryInput.value.replace(/\D/g, '');
    return {
      number: this.numberInput.value.replace(/\D/g, ''),
      expMonth: expiry.slice(0, 2),
      expYear: expiry.slice(2, 4),
      cvc: this.cvcInput.value,
    };
  }

  state(): CardFormState {
    const f = this.fields();
    return {
      empty: !f.number && !f.expMonth && !f.cvc,
      complete: validateCard(f, new Date()) === null,
    };
  }

  /** Shows `message` (or clears it) and marks the field it is about. */
  showError(message: string | null, field?: 'number' | 'expiry' | 'cvc'): void {
    this.alert.textContent = message ?? '';
    for (const [name, input] of [
      ['number', this.numberInput],
      ['expiry', this.expiryInput],
      ['cvc', this.cvcInput],
    ] as const) {
      if (message && name === field) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
    if (message && field) this.inputOf(field).focus();
  }

  clear(): void {
    this.numberInput.value = this.expiryInput.value = this.cvcInput.value = '';
    this.showError(null);
    this.changed();
  }

  focus(): void {
    this.numberInput.focus();
  }

  setDisabled(disabled: boolean): void {
    this.root.disabled = disabled;
  }

  private inputOf(field: 'number' | 'expiry' | 'cvc'): HTMLInputElement {
    return field === 'number' ? this.numberInput : field === 'expiry' ? this.expiryInput : this.cvcInput;
  }

  private changed(): void {
    this.onChange(this.state());
  }
}

/** Luhn's checksum, as card numbers carry it. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** What is wrong with the card as typed, Stripe's code and the field, or null when it can be sent. */
export function validateCard(
  card: CardFields,
  now: Date,
): { code: CardErrorCode; field: 'number' | 'expiry' | 'cvc' } | null {
  if (card.number.length < 13) return { code: 'incomplete_number', field: 'number' };
  if (!luhnValid(card.number)) return { code: 'invalid_number', field: 'number' };
  if (card.expMonth.length < 2 || card.expYear.length < 2)
    return { code: 'incomplete_expiry', field: 'expiry' };
  const month = Number(card.expMonth);
  if (month < 1 || month > 12) return { code: 'invalid_expiry_month', field: 'expiry' };
  const year = 2000 + Number(card.expYear);
  const thisYear = now.getUTCFullYear();
  if (year < thisYear || (year === thisYear && month < now.getUTCMonth() + 1)) {
    return { code: 'invalid_expiry_year_past', field: 'expiry' };
  }
  if (!/^\d{3,4}$/.test(card.cvc)) return { code: 'incomplete_cvc', field: 'cvc' };
  return null;
}
