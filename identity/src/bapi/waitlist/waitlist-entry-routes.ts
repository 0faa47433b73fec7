import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { validateEmail } from '../../fapi/sign-ups/validate.ts';
import {
  inviteWaitlistEntry,
  joinWaitlist,
  rejectWaitlistEntry,
  waitlistEntryJSON,
} from '../../sign-up-modes/waitlist.ts';
import {
  listWaitlistEntries,
  WAITLIST_ENTRY_STATUSES,
  WAITLIST_ORDERS,
  type WaitlistEntryStatus,
} from '../../store/waitlist.ts';
import type { BapiRoute } from '../route.ts';
import { jsonInput, queryInput } from '../json-input.ts';

/**
 * Backend API: the waitlist, as `@clerk/backend` 2.10.1's `waitlistEntries.list/create` call it, plus
 * `invite` and `reject` as later versions (2.33) define them. The operator (the secret key) sees the
 * whole instance's waitlist; there is no narrower owner.
 */

const MAX_QUERY = 256;

function single(value: string | string[] | undefined, name: string): string | null {
  if (value === undefined || value === '') return null;
  if (Array.isArray(value)) throw errors.paramValueInvalid(name, `${name} may be given once.`);
  return value;
}

export const waitlistEntryRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/waitlist_entries',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      query: queryInput({ limit: 'page', offset: 'page', query: 'text', status: 'enum', order_by: 'enum' }),
    },
    async handler(req, deps) {
      const query = single(req.query.query, 'query');
      if (query && query.length > MAX_QUERY) throw errors.paramMaxLength('query', MAX_QUERY);
      const status = single(req.query.status, 'status');
      if (status && !WAITLIST_ENTRY_STATUSES.includes(status as WaitlistEntryStatus)) {
        throw errors.paramValueInvalid(
          'status',
          `status must be one of ${WAITLIST_ENTRY_STATUSES.join(', ')}.`,
        );
      }
      const orderBy = single(req.query.order_by, 'order_by') ?? '-created_at';
      if (!WAITLIST_ORDERS.includes(orderBy)) {
        throw errors.paramValueInvalid('order_by', `order_by must be one of ${WAITLIST_ORDERS.join(', ')}.`);
      }
      const page = pageOf(req.query);
      const now = deps.clock();
      const found = await listWaitlistEntries(deps.db, {
        query,
        status: status as WaitlistEntryStatus | null,
        orderBy,
        ...page,
      });
      return {
        data: await Promise.all(found.data.map((e) => waitlistEntryJSON(deps.db, e, now))),
        total_count: found.total,
      };
    },
  },
  {
    method: 'POST',
    path: '/v1/waitlist_entries',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ email_address: 'email', notify: 'boolean' }) },
    async handler(req, deps) {
      const raw = req.fields.string('email_address');
      if (!raw) throw errors.paramMissing('email_address');
      const email = validateEmail(raw);
      // `notify` (a "you joined" mail) is accepted; this provider sends none, as clerk-js's own join does not.
      req.fields.boolean('notify');
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const { entry } = await joinWaitlist(tx, email, now);
        return waitlistEntryJSON(tx, entry, now);
      });
    },
  },
  {
    method: 'POST',
    path: '/v1/waitlist_entries/:id/invite',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ ignore_existing: 'boolean' }) },
    async handler(req, deps) {
      const ignoreExisting = req.fields.boolean('ignore_existing') ?? false;
      const now = deps.clock();
      return deps.db.transaction((tx) =>
        inviteWaitlistEntry(tx, deps, req.params.id!, now, { ignoreExisting }),
      );
    },
  },
  {
    method: 'POST',
    path: '/v1/waitlist_entries/:id/reject',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const now = deps.clock();
      return deps.db.transaction((tx) => rejectWaitlistEntry(tx, req.params.id!, now));
    },
  },
];
