import { errors } from '../../errors.ts';
import { pageOf, statusFilterOf } from '../../organizations/invitations.ts';
import {
  createApplicationInvitations,
  revokeApplicationInvitation,
  type ApplicationInvitationRequest,
} from '../../sign-up-modes/application-invitations.ts';
import { instanceInvitationJSON } from '../../sign-up-modes/waitlist.ts';
import {
  INSTANCE_INVITATION_ORDERS,
  listInstanceInvitations,
  type InstanceInvitationStatus,
} from '../../store/waitlist.ts';
import { jsonInput, queryInput } from '../json-input.ts';
import { JsonBody, queryFlag } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: invitations to the application, as `@clerk/backend` 2.10.1's `invitations` calls them
 * (`getInvitationList`, `createInvitation`, `revokeInvitation`), plus `POST /v1/invitations/bulk`
 * (`createInvitationBulk` of later versions). The list is `{data, total_count}` (the SDK asks for
 * `paginated=true`; Clerk's bare array without it). `url` is known only when the invitation is made:
 * only the ticket's hash is kept.
 */

const MAX_QUERY = 256;

const INVITATION = {
  email_address: 'email',
  public_metadata: 'object',
  redirect_url: 'string',
  notify: 'boolean',
  ignore_existing: 'boolean',
  // A number: application-invitations.ts refuses one that is not a whole count of days in range.
  expires_in_days: 'number',
  template_slug: 'string',
} as const;
const INVITATION_INPUT = jsonInput(INVITATION);

function single(value: string | string[] | undefined, name: string): string | null {
  if (value === undefined || value === '') return null;
  if (Array.isArray(value)) throw errors.paramValueInvalid(name, `${name} may be given once.`);
  return value;
}

/** One invitation of a create/bulk body (snake_case JSON). */
function invitationRequest(body: unknown): ApplicationInvitationRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.bodyInvalid('Each invitation must be a JSON object.');
  }
  const fields = new JsonBody(body, INVITATION_INPUT);
  const text = (name: string): string | undefined => fields.string(name) || undefined;
  return {
    emailAddress: text('email_address'),
    publicMetadata: fields.object('public_metadata'),
    redirectUrl: text('redirect_url'),
    notify: fields.boolean('notify'),
    ignoreExisting: fields.boolean('ignore_existing'),
    expiresInDays: fields.number('expires_in_days'),
    templateSlug: text('template_slug'),
  };
}

export const applicationInvitationRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/invitations',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      query: queryInput({
        limit: 'page',
        offset: 'page',
        status: 'enum',
        query: 'text',
        order_by: 'enum',
        paginated: 'flag',
      }),
    },
    async handler(req, deps) {
      const query = single(req.query.query, 'query');
      if (query && query.length > MAX_QUERY) throw errors.paramMaxLength('query', MAX_QUERY);
      const statuses = statusFilterOf(req.query.status, null) as InstanceInvitationStatus[] | null;
      const orderBy = single(req.query.order_by, 'order_by') ?? '-created_at';
      if (!INSTANCE_INVITATION_ORDERS.includes(orderBy)) {
        throw errors.paramValueInvalid(
          'order_by',
          `order_by must be one of ${INSTANCE_INVITATION_ORDERS.join(', ')}.`,
        );
      }
      const paginated = queryFlag(req.query, 'paginated');
      const now = deps.clock();
      const found = await listInstanceInvitations(deps.db, {
        query,
        statuses,
        orderBy,
        ...pageOf(req.query),
        now,
      });
      const data = found.data.map((inv) => instanceInvitationJSON(inv, now));
      return paginated ? { data, total_count: found.total } : data;
    },
  },
  {
    method: 'POST',
    path: '/v1/invitations',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: INVITATION_INPUT },
    async handler(req, deps) {
      const request = invitationRequest(req.body);
      const now = deps.clock();
      const [created] = await deps.db.transaction((tx) =>
        createApplicationInvitations(tx, deps, [request], now),
      );
      return created!;
    },
  },
  {
    method: 'POST',
    path: '/v1/invitations/bulk',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { array: true, body: INVITATION_INPUT },
    async handler(req, deps) {
      if (!Array.isArray(req.body))
        throw errors.bodyInvalid('The request body must be a JSON array of invitations.');
      const requests = (req.body as unknown[]).map(invitationRequest);
      const now = deps.clock();
      return deps.db.transaction((tx) => createApplicationInvitations(tx, deps, requests, now));
    },
  },
  {
    method: 'POST',
    path: '/v1/invitations/:id/revoke',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const now = deps.clock();
      return deps.db.transaction((tx) => revokeApplicationInvitation(tx, req.params.id!, now));
    },
  },
];
