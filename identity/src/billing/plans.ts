import type { BillingSettings } from './billing-settings.ts';
import type { Feature, PayerType, Plan, PlanPeriod } from './billing-model.ts';

/** The plans and features the settings offer now, by id, slug and payer type (docs/billing.md). */
export interface PlanCatalogue {
  plans: Plan[];
  features: Feature[];
  forPayer(type: PayerType): Plan[];
  byId(id: string): Plan | undefined;
  bySlug(slug: string): Plan | undefined;
  defaultFor(type: PayerType): Plan | undefined;
  currency: string;
}

export const planId = (slug: string) => `cplan_${slug}`;
export const featureId = (slug: string) => `cfeat_${slug}`;

export function planCatalogue(settings: BillingSettings): PlanCatalogue {
  const features: Feature[] = Object.entries(settings.features).map(([slug, f]) => ({
    id: featureId(slug),
    slug,
    name: f.name,
    description: f.description,
  }));
  const featureBySlug = new Map(features.map((f) => [f.slug, f]));
  const plans: Plan[] = Object.entries(settings.plans).map(([slug, p]) => ({
    id: planId(slug),
    slug,
    name: p.name,
    description: p.description,
    payerType: p.payerType,
    currency: settings.currency,
    monthlyFee: p.monthlyFee,
    annualMonthlyFee: p.annualMonthlyFee ?? null,
    features: p.features.map((s) => featureBySlug.get(s)!).filter(Boolean),
    freeTrialDays: p.freeTrialDays ?? 0,
    isDefault: p.isDefault,
    publiclyVisible: p.publiclyVisible,
  }));
  const byId = new Map(plans.map((p) => [p.id, p]));
  const bySlug = new Map(plans.map((p) => [p.slug, p]));
  return {
    plans,
    features,
    forPayer: (type) => plans.filter((p) => p.payerType === type),
    byId: (id) => byId.get(id),
    bySlug: (slug) => bySlug.get(slug),
    defaultFor: (type) => plans.find((p) => p.payerType === type && p.isDefault),
    currency: settings.currency,
  };
}

/** A plan's fee for one period (a month, or twelve months billed annually); null: no such billing. */
export function periodFee(plan: Plan, period: PlanPeriod): number | null {
  if (period === 'month') return plan.monthlyFee;
  return plan.annualMonthlyFee === null ? null : plan.annualMonthlyFee * 12;
}

/** The fee per month of a period, to compare plans billed differently (upgrade or downgrade). */
export function monthlyEquivalent(plan: Plan, period: PlanPeriod): number {
  return period === 'annual' && plan.annualMonthlyFee !== null ? plan.annualMonthlyFee : plan.monthlyFee;
}

export const isFreePlan = (plan: Plan) => plan.monthlyFee === 0 && (plan.annualMonthlyFee ?? 0) === 0;

/** The end of a period starting at `start`: a calendar month or year later (UTC, end of month clamped). */
export function addPeriod(start: Date, period: PlanPeriod, count = 1): Date {
  const months = period === 'annual' ? 12 * count : count;
  const d = new Date(start.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}

export const DAY_MS = 86_400_000;
export const addDays = (d: Date, days: number) => new Date(d.getTime() + days * DAY_MS);
