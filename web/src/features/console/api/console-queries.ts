import { queryOptions } from '@tanstack/react-query';
import type { HttpClient } from '../../../lib/http/index.ts';
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

/** GET /console/api/me: whether the user is an operator (403 otherwise), and has a second factor. */
export const consoleMeQuery = (client: HttpClient, userId: string | null) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'me'],
    queryFn: ({ signal }) => consoleGet<ConsoleMe>(client, `${CONSOLE_API}/me`, signal),
    enabled: userId !== null,
    retry: false,
    staleTime: 60_000,
  });

export const PAGE_SIZE = 20;

export const usersQuery = (client: HttpClient, userId: string | null, search: string, offset: number) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'users', search, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<ConsoleUser>>(
        client,
        withQuery('/users', { query: search, limit: PAGE_SIZE, offset }),
        signal,
      ),
  });

export const userQuery = (client: HttpClient, userId: string | null, id: string) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'user', id],
    queryFn: ({ signal }) =>
      consoleGet<UserDetails>(client, `${CONSOLE_API}/users/${encodeURIComponent(id)}`, signal),
  });

export const organizationsQuery = (
  client: HttpClient,
  userId: string | null,
  search: string,
  offset: number,
) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'organizations', search, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<ConsoleOrganization>>(
        client,
        withQuery('/organizations', { query: search, limit: PAGE_SIZE, offset }),
        signal,
      ),
  });

export const organizationQuery = (client: HttpClient, userId: string | null, id: string) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'organization', id],
    queryFn: ({ signal }) =>
      consoleGet<OrganizationDetails>(
        client,
        `${CONSOLE_API}/organizations/${encodeURIComponent(id)}`,
        signal,
      ),
  });

export const userCredentialsQuery = (client: HttpClient, userId: string | null, id: string) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'user', id, 'credentials'],
    queryFn: ({ signal }) =>
      consoleGet<UserCredentials>(
        client,
        `${CONSOLE_API}/users/${encodeURIComponent(id)}/credentials`,
        signal,
      ),
  });

export const organizationExtrasQuery = (client: HttpClient, userId: string | null, id: string) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'organization', id, 'details'],
    queryFn: ({ signal }) =>
      consoleGet<OrganizationExtras>(
        client,
        `${CONSOLE_API}/organizations/${encodeURIComponent(id)}/details`,
        signal,
      ),
  });

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
  queryOptions({
    queryKey: [...consoleKey(userId), 'audit-events', filters, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<AuditEvent>>(
        client,
        withQuery('/audit-events', { ...filters, limit: AUDIT_PAGE_SIZE, offset }),
        signal,
      ),
  });

/** GET /console/api/settings: read afresh each time the page opens (another operator may have changed them). */
export const settingsQuery = (client: HttpClient, userId: string | null) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'settings'],
    queryFn: ({ signal }) => consoleGet<InstanceSettingsDocument>(client, `${CONSOLE_API}/settings`, signal),
    staleTime: 0,
  });

export const webhookEndpointsQuery = (client: HttpClient, userId: string | null) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'webhook-endpoints'],
    queryFn: ({ signal }) =>
      consoleGet<Page<WebhookEndpoint>>(client, `${CONSOLE_API}/webhooks/endpoints`, signal),
  });

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
  queryOptions({
    queryKey: [...consoleKey(userId), 'webhook-deliveries', filters, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<WebhookDelivery>>(
        client,
        withQuery('/webhooks/deliveries', { ...filters, limit: PAGE_SIZE, offset }),
        signal,
      ),
  });

export const webhookDeliveryQuery = (client: HttpClient, userId: string | null, id: string) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'webhook-delivery', id],
    queryFn: ({ signal }) =>
      consoleGet<WebhookDeliveryDetails>(
        client,
        `${CONSOLE_API}/webhooks/deliveries/${encodeURIComponent(id)}`,
        signal,
      ),
  });

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
  queryOptions({
    queryKey: [...consoleKey(userId), 'waitlist', filters, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<WaitlistEntry>>(
        client,
        withQuery('/sign-up/waitlist', { ...filters, limit: PAGE_SIZE, offset }),
        signal,
      ),
  });

export const invitationsQuery = (
  client: HttpClient,
  userId: string | null,
  filters: SignUpFilters,
  offset: number,
) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'invitations', filters, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<ApplicationInvitation>>(
        client,
        withQuery('/sign-up/invitations', { ...filters, limit: PAGE_SIZE, offset }),
        signal,
      ),
  });

export type IdentifierList = 'allowlist' | 'blocklist';

export const identifierListQuery = (
  client: HttpClient,
  userId: string | null,
  list: IdentifierList,
  offset: number,
) =>
  queryOptions({
    queryKey: [...consoleKey(userId), list, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<ListedIdentifier>>(
        client,
        withQuery(`/sign-up/${list}`, { limit: PAGE_SIZE, offset }),
        signal,
      ),
  });

/** The API keys of a subject (a user or an organisation id), the revoked and expired ones with `includeInvalid`. */
export const apiKeysQuery = (
  client: HttpClient,
  userId: string | null,
  subject: string,
  includeInvalid: boolean,
  offset: number,
) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'api-keys', subject, includeInvalid, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<ConsoleApiKey>>(
        client,
        withQuery('/applications/api-keys', {
          subject,
          include_invalid: includeInvalid ? 'true' : undefined,
          limit: PAGE_SIZE,
          offset,
        }),
        signal,
      ),
    enabled: subject !== '',
  });

export const oauthApplicationsQuery = (client: HttpClient, userId: string | null, offset: number) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'oauth-applications', offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<ConsoleOAuthApplication>>(
        client,
        withQuery('/applications/oauth', { limit: PAGE_SIZE, offset }),
        signal,
      ),
  });

export const machinesQuery = (client: HttpClient, userId: string | null, search: string, offset: number) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'machines', search, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<ConsoleMachine>>(
        client,
        withQuery('/applications/machines', { query: search, limit: PAGE_SIZE, offset }),
        signal,
      ),
  });

/** GET /console/api/billing/plans: the catalogue, every plan (hidden ones too), by payer type or all. */
export const billingPlansQuery = (client: HttpClient, userId: string | null, payerType: string) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'billing-plans', payerType],
    queryFn: ({ signal }) =>
      consoleGet<Page<ConsolePlan>>(
        client,
        withQuery('/billing/plans', { payer_type: payerType || undefined, limit: 100 }),
        signal,
      ),
  });

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
  filters: SubscriptionFilters,
  offset: number,
) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'billing-subscriptions', filters, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<ConsoleSubscriptionItem>>(
        client,
        withQuery('/billing/subscriptions', {
          status: filters.status || undefined,
          payer_type: filters.payerType || undefined,
          plan_id: filters.planId || undefined,
          limit: PAGE_SIZE,
          offset,
        }),
        signal,
      ),
  });

/** GET /console/api/billing/statements: every payer's statements, or one payer's, newest month first. */
export const billingStatementsQuery = (
  client: HttpClient,
  userId: string | null,
  payerId: string,
  offset: number,
) =>
  queryOptions({
    queryKey: [...consoleKey(userId), 'billing-statements', payerId, offset],
    queryFn: ({ signal }) =>
      consoleGet<Page<ConsoleStatement>>(
        client,
        withQuery('/billing/statements', { payer_id: payerId || undefined, limit: PAGE_SIZE, offset }),
        signal,
      ),
  });
