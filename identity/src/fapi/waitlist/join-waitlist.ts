import type { RateLimitRule } from '../../store/rate-limits.ts';
import { errors } from '../../errors.ts';
import { joinWaitlist, waitlistJSON } from '../../sign-up-modes/waitlist.ts';
import type { FapiRequestInfo, FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { validateEmail } from '../sign-ups/validate.ts';
import { formInput } from '../form-input.ts';

/** Joins per address and per network address: a flood adds nothing, nor fills the table (abuse). */
const PER_IP_PER_HOUR = 20;
const PER_ADDRESS_PER_HOUR = 5;

function waitlistLimits(req: FapiRequestInfo): RateLimitRule[] {
  const rules: RateLimitRule[] = [
    { key: `waitlist:ip:${req.ip}`, limit: PER_IP_PER_HOUR, windowSeconds: 3600 },
  ];
  const raw = field(req.body, 'email_address');
  // A malformed address is refused by the handler; only the network address counts it.
  const email = raw && raw.length <= 254 ? raw.trim().toLowerCase() : null;
  if (email) rules.push({ key: `waitlist:to:${email}`, limit: PER_ADDRESS_PER_HOUR, windowSeconds: 3600 });
  return rules;
}

/**
 * POST /v1/waitlist `{email_address}` — <Waitlist/> (clerk-js `Waitlist.join`): answers `{response:
 * WaitlistJSON, client}`. Open in every sign-up mode (a list gathered before the mode is switched on is
 * kept); an address joins once and joining again answers the same entry (hosted Clerk does the same), so
 * nothing here tells whether an address (or an account) exists.
 */
export const joinWaitlistRoute: FapiRoute = {
  method: 'POST',
  path: '/waitlist',
  auth: 'none',
  permission: null,
  input: { body: formInput({ email_address: 'email' }) },
  rateLimits: waitlistLimits,
  async handler(ctx) {
    const raw = field(ctx.body, 'email_address');
    if (raw === undefined) throw errors.paramMissing('email_address');
    const email = validateEmail(raw);
    const { entry } = await joinWaitlist(ctx.tx, email, ctx.now, {
      clientIp: ctx.ip,
      userAgent: ctx.userAgent ?? '',
    });
    return { response: waitlistJSON(entry) };
  },
};
