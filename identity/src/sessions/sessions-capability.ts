import type { Capability } from '../capability.ts';
import { DAY } from '../retention/retention-rule.ts';

/** The core: clients (browsers), sign-ins, sign-ups, their codes, and sessions. */
export const sessionsCapability: Capability = {
  name: 'sessions',
  retention: [
    // Handshake nonces live a minute and are taken once; each new one also clears the expired ones.
    { table: 'handshake_nonces', expired: 'expires_at < $1::timestamptz' },
    // Satellite link tokens live a minute and are taken once, like the nonces (docs/satellites.md).
    { table: 'satellite_links', expired: 'expires_at < $1::timestamptz' },
    // Codes live 10 minutes and are single use: a day later neither an attempt nor an audit needs them.
    { table: 'verification_codes', expired: `expire_at < $1::timestamptz - ${DAY}` },
    // Sign-ins and sign-ups a day past being abandoned, unless their browser still points at them.
    {
      table: 'sign_ins',
      expired: `abandon_at < $1::timestamptz - ${DAY} AND NOT EXISTS (SELECT 1 FROM clients c WHERE c.sign_in_id = sign_ins.id)`,
    },
    {
      table: 'sign_ups',
      expired: `abandon_at < $1::timestamptz - ${DAY} AND NOT EXISTS (SELECT 1 FROM clients c WHERE c.sign_up_id = sign_ups.id)`,
    },
    // Sessions ended, revoked or expired 30 days ago (their activity rows and verifications go with them):
    // the last month stays for the Backend API and for people asking "where was I signed in?".
    {
      table: 'sessions',
      expired: `(expire_at < $1::timestamptz - interval '30 days'
       OR (status NOT IN ('active', 'pending') AND updated_at < $1::timestamptz - interval '30 days'))`,
    },
    // A browser with no session left, idle for a day: a signed-out or never-used cookie, or a flood of
    // `PUT /client`. Its pending sign-in or sign-up, if any, goes with it.
    {
      table: 'clients',
      expired: `updated_at < $1::timestamptz - ${DAY} AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.client_id = clients.id)`,
    },
  ],
};
