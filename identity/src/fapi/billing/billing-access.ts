import type { PlanCatalogue } from '../../billing/plans.ts';
import type { PayerRef } from '../../billing/billing-model.ts';
import type { MailLanguage } from '../../mail/language.ts';
import { findUserById } from '../../store/users.ts';
import { errors } from '../../errors.ts';
import { hasPermission } from '../../organizations/roles.ts';
import type { SessionRow } from '../../store/rows.ts';
import type { FapiContext } from '../context.ts';
import { currentSession } from '../me/me-session.ts';
import { requireOrganization } from '../organizations/access.ts';
import { readerLanguage } from '../reader-language.ts';

/** Looking (subscription, statements, payments, payment methods) or changing anything. */
export type BillingAccess = 'read' | 'manage';

export interface BillingCaller {
  session: SessionRow;
  /** The signed-in user acting (who starts a checkout, who is the payer's contact). */
  userId: string;
  ref: PayerRef;
  catalogue: PlanCatalogue;
  /** The language the answer's plan and feature names are written in (reader-language.ts). */
  language: MailLanguage;
}

/** The plan catalogue, or 404 when the instance does not bill (clerk-js then shows no billing at all). */
export function catalogueOf(ctx: { deps: FapiContext['deps'] }): PlanCatalogue {
  const catalogue = ctx.deps.billing.catalogue();
  if (!catalogue) throw errors.notFound('endpoint');
  return catalogue;
}

/**
 * Who pays for a billing call, and whether the caller may: `/me/commerce/…` is the session's user paying
 * for themselves; `/organizations/:organizationId/commerce/…` the organisation, for a member whose role
 * has `org:sys_billing:manage` (every write) or `:read` (looking). Not a member answers as a missing
 * organisation (nothing leaks across tenants); a member without the permission gets 403.
 */
export async function billingCaller(ctx: FapiContext, access: BillingAccess): Promise<BillingCaller> {
  const catalogue = catalogueOf(ctx);
  const organizationId = ctx.params.organizationId;
  const languageOf = (userId: string) => readerLanguage(ctx, () => findUserById(ctx.tx, userId));
  if (organizationId === undefined) {
    const session = await currentSession(ctx);
    const { user_id: userId } = session;
    return { session, userId, ref: { type: 'user', userId }, catalogue, language: await languageOf(userId) };
  }
  const { session, organization, membership } = await requireOrganization(ctx, organizationId);
  const allowed =
    hasPermission(membership.role, 'org:sys_billing:manage') ||
    (access === 'read' && hasPermission(membership.role, 'org:sys_billing:read'));
  if (!allowed) throw errors.permissionDenied();
  return {
    session,
    userId: session.user_id,
    ref: { type: 'org', organizationId: organization.id },
    catalogue,
    language: await languageOf(session.user_id),
  };
}
