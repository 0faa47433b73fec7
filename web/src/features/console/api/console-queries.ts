import { queryOptions } from '@tanstack/react-query';
import type { HttpClient } from '../../../lib/http/index.ts';
import type { Language } from '../../../lib/i18n/languages.ts';
import { CONSOLE_API, consoleGet, withQuery } from './console-api.ts';
import type {
  ApplicationInvitation,
  AuditEvent,
  ConsoleApiKey,
  ConsoleMachine,
  ConsoleMe,
  ConsoleOAuthApplication,
  ConsoleOrganization,
  ConsolePlan,
  ConsoleStatement,
  ConsoleSubscriptionItem,
  ConsoleUser,
  InstanceSettingsDocument,
  ListedIdentifier,
  OrganizationDetails,
  OrganizationExtras,
  Page,
  UserCredentials,
  UserDetails,
  WaitlistEntry,
  WebhookDelivery,
  WebhookDeliveryDetails,
  WebhookEndpoint,
} from './types.ts';

/** Every console query's key starts here, with the signed-in user: another account never reads them. */
export const consoleKey = (userId: string | null) => ['console', userId] as const;

export const PAGE_SIZE = 20;

type QueryParams = Record<string, string | number | undefined>;

/** What a query may set besides its key and fetcher. */
interface QueryExtras {
  enabled?: boolean;
  retry?: boolean;
  staleTime?: number;
}

/** A GET of the console API at `path`, cached under the user's console key followed by `key`. */
function consoleQuery<T>(
  client: HttpClient,
  userId: string | null,
  key: readonly unknown[],
  path: string,
  extras: QueryExtras = {},
) {
  return queryOptions({
    queryKey: [...consoleKey(userId), ...key],
    queryFn: ({ signal }) => consoleGet<T>(client, `${CONSOLE_API}${path}`, signal),
    ...extras,
  });
}

/**
 * One page of a console list at `path`: `size` rows from `offset`, with `params` (empty ones left out);
 * cached under `key` and the offset.
 */
function pageQuery<T>(
  client: HttpClient,
  userId: string | null,
  key: readonly unknown[],
  path: string,
  params: QueryParams,
  offset: number,
  { size = PAGE_SIZE, ...extras }: QueryExtras & { size?: number } = {},
) {
  return queryOptions({
    queryKey: [...consoleKey(userId), ...key, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<T>>(client, withQuery(path, { ...params, limit: size, offset }), signal),
    ...extras,
  });
}

/** An id as one segment of a path. */
const segment = (id: string) => encodeURIComponent(id);

/** GET /console/api/me: whether the user is an operator (403 otherwise), and has a second factor. */
export const consoleMeQuery = (client: HttpClient, userId: string | null) =>
  consoleQuery<ConsoleMe>(client, userId, ['me'], '/me', {
    enabled: userId !== null,
    retry: false,
    staleTime: 60_000,
  });

export const usersQuery = (client: HttpClient, userId: string | null, search: string, offset: number) =>
  pageQuery<ConsoleUser>(client, userId, ['users', search], '/users', { query: search }, offset);

export const userQuery = (client: HttpClient, userId: string | null, id: string) =>
  consoleQuery<UserDetails>(client, userId, ['user', id], `/users/${segment(id)}`);

export const organizationsQuery = (
  client: HttpClient,
  userId: string | null,
  search: string,
  offset: number,
) =>
  pageQuery<ConsoleOrganization>(
    client,
    userId,
    ['organizations', search],
    '/organizations',
    { query: search },
    offset,
  );

export const organizationQuery = (client: HttpClient, userId: string | null, id: string) =>
  consoleQuery<OrganizationDetails>(client, userId, ['organization', id], `/organizations/${segment(id)}`);

export const userCredentialsQuery = (client: HttpClient, userId: string | null, id: string) =>
  consoleQuery<UserCredentials>(
    client,
    userId,
    ['user', id, 'credentials'],
    `/users/${segment(id)}/credentials`,
  );

export const organizationExtrasQuery = (client: HttpClient, userId: string | null, id: string) =>
  consoleQuery<OrganizationExtras>(
    client,
    userId,
    ['organization', id, 'details'],
    `/organizations/${segment(id)}/details`,
  );

/** The audit log's filters, as GET /v1/audit_events takes them (dates as Unix milliseconds). */
export interface AuditFilters {
  actor_type?: string;
  actor_id?: string;
  action?: string;
  object_type?: string;
  object_id?: string;
  created_at_after?: string;
  created_at_before?: string;
}

export const AUDIT_PAGE_SIZE = 25;

export const auditEventsQuery = (
  client: HttpClient,
  userId: string | null,
  filters: AuditFilters,
  offset: number,
) =>
  pageQuery<AuditEvent>(client, userId, ['audit-events', filters], '/audit-events', { ...filters }, offset, {
    size: AUDIT_PAGE_SIZE,
  });

/** GET /console/api/settings: read afresh each time the page opens (another operator may have changed them). */
export const settingsQuery = (client: HttpClient, userId: string | null) =>
  consoleQuery<InstanceSettingsDocument>(client, userId, ['settings'], '/settings', { staleTime: 0 });

export const webhookEndpointsQuery = (client: HttpClient, userId: string | null) =>
  consoleQuery<Page<WebhookEndpoint>>(client, userId, ['webhook-endpoints'], '/webhooks/endpoints');

/** The deliveries' filters, as GET /v1/webhook_deliveries takes them. */
export interface DeliveryFilters {
  endpoint_id?: string;
  event_type?: string;
  status?: string;
}

export const webhookDeliveriesQuery = (
  client: HttpClient,
  userId: string | null,
  filters: DeliveryFilters,
  offset: number,
) =>
  pageQuery<WebhookDelivery>(
    client,
    userId,
    ['webhook-deliveries', filters],
    '/webhooks/deliveries',
    { ...filters },
    offset,
  );

export const webhookDeliveryQuery = (client: HttpClient, userId: string | null, id: string) =>
  consoleQuery<WebhookDeliveryDetails>(
    client,
    userId,
    ['webhook-delivery', id],
    `/webhooks/deliveries/${segment(id)}`,
  );

/** The sign-up area's lists' filters: a status and an address (the allow and block lists take neither). */
export interface SignUpFilters {
  status?: string;
  query?: string;
}

export const waitlistQuery = (
  client: HttpClient,
  userId: string | null,
  filters: SignUpFilters,
  offset: number,
) =>
  pageQuery<WaitlistEntry>(
    client,
    userId,
    ['waitlist', filters],
    '/sign-up/waitlist',
    { ...filters },
    offset,
  );

export const invitationsQuery = (
  client: HttpClient,
  userId: string | null,
  filters: SignUpFilters,
  offset: number,
) =>
  pageQuery<ApplicationInvitation>(
    client,
    userId,
    ['invitations', filters],
    '/sign-up/invitations',
    { ...filters },
    offset,
  );

export type IdentifierList = 'allowlist' | 'blocklist';

export const identifierListQuery = (
  client: HttpClient,
  userId: string | null,
  list: IdentifierList,
  offset: number,
) => pageQuery<ListedIdentifier>(client, userId, [list], `/sign-up/${list}`, {}, offset);

/** The API keys of a subject (a user or an organisation id), the revoked and expired ones with `includeInvalid`. */
export const apiKeysQuery = (
  client: HttpClient,
  userId: string | null,
  subject: string,
  includeInvalid: boolean,
  offset: number,
) =>
  pageQuery<ConsoleApiKey>(
    client,
    userId,
    ['api-keys', subject, includeInvalid],
    '/applications/api-keys',
    { subject, include_invalid: includeInvalid ? 'true' : undefined },
    offset,
    { enabled: subject !== '' },
  );

export const oauthApplicationsQuery = (client: HttpClient, userId: string | null, offset: number) =>
  pageQuery<ConsoleOAuthApplication>(
    client,
    userId,
    ['oauth-applications'],
    '/applications/oauth',
    {},
    offset,
  );

export const machinesQuery = (client: HttpClient, userId: string | null, search: string, offset: number) =>
  pageQuery<ConsoleMachine>(
    client,
    userId,
    ['machines', search],
    '/applications/machines',
    { query: search },
    offset,
  );

// Billing's answers name plans and features in the interface language (the server forwards
// `x-localization` to the Backend API, docs/languages.md): cached per language, so a switch asks again.

/** GET /console/api/billing/plans: the catalogue, every plan (hidden ones too), by payer type or all. */
export const billingPlansQuery = (
  client: HttpClient,
  userId: string | null,
  language: Language,
  payerType: string,
) =>
  pageQuery<ConsolePlan>(
    client,
    userId,
    ['billing-plans', language, payerType],
    '/billing/plans',
    { payer_type: payerType || undefined },
    0,
    { size: 100 },
  );

/** What the subscriptions page filters by (empty: any). */
export interface SubscriptionFilters {
  status: string;
  payerType: string;
  planId: string;
}

/** GET /console/api/billing/subscriptions: every payer's items, newest first. */
export const billingSubscriptionsQuery = (
  client: HttpClient,
  userId: string | null,
  language: Language,
  filters: SubscriptionFilters,
  offset: number,
) =>
  pageQuery<ConsoleSubscriptionItem>(
    client,
    userId,
    ['billing-subscriptions', language, filters],
    '/billing/subscriptions',
    {
      status: filters.status || undefined,
      payer_type: filters.payerType || undefined,
      plan_id: filters.planId || undefined,
    },
    offset,
  );

/** GET /console/api/billing/statements: every payer's statements, or one payer's, newest month first. */
export const billingStatementsQuery = (
  client: HttpClient,
  userId: string | null,
  language: Language,
  payerId: string,
  offset: number,
) =>
  pageQuery<ConsoleStatement>(
    client,
    userId,
    ['billing-statements', language, payerId],
    '/billing/statements',
    { payer_id: payerId || undefined },
    offset,
  );
