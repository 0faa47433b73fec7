import {
  MODULE_FLAGS,
  SUBSCRIPTION_STATUSES,
  type ModuleFlag,
  type SubscriptionStatus,
} from '../../../state/auth/organization-metadata.ts';

/** A client organisation as the product API lists it. */
export interface ChildOrganization {
  id: string;
  name: string;
  slug: string | null;
  /** Each module flag of spec §3. */
  modules: Record<ModuleFlag, boolean>;
  hasActiveSubscription: SubscriptionStatus;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Null when the answer is not a child organisation; missing flags read as off, an odd status as NO. */
export function parseChildOrganization(raw: unknown): ChildOrganization | null {
  if (!isObject(raw) || typeof raw.id !== 'string' || typeof raw.name !== 'string') return null;
  if (raw.slug !== null && typeof raw.slug !== 'string') return null;
  const modules = isObject(raw.modules) ? raw.modules : {};
  const status = raw.hasActiveSubscription;
  return {
    id: raw.id,
    name: raw.name,
    slug: raw.slug,
    modules: Object.fromEntries(MODULE_FLAGS.map((flag) => [flag, modules[flag] === true])) as Record<
      ModuleFlag,
      boolean
    >,
    hasActiveSubscription: (SUBSCRIPTION_STATUSES as readonly unknown[]).includes(status)
      ? (status as SubscriptionStatus)
      : 'NO',
  };
}
