import { isPasswordHashingBusy, verifyPassword } from '../../crypto/passwords.ts';
import { checkPassword, precheckPassword } from '../prepared-passwords.ts';
import { errors } from '../../errors.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import { emailAddressesOf, signInCandidate } from '../../store/users.ts';
import { assertNotLockedOut } from '../../abuse/attempt-gate.ts';
import type { FapiRoute } from '../context.ts';
import {
  loadOwnerByIdentifier,
  loadOwnerByIdentifierWithLimits,
  type Owner,
} from '../../users/load-users.ts';
import { field, has, rawField } from '../form.ts';
import { attemptPassword } from './attempt-password.ts';
import { emailOf, sendEmailCode } from './email-code.ts';
import { isCompleteSignIn, signInResponse } from './respond.ts';
import { createSignIn, ensureSignInSaved, newSignIn, updateSignIn } from '../../store/sign-ins.ts';
import { assertMaySignInWith } from '../../identifier-lists/enforce-lists.ts';
import { identifierLimit, limitSignInsOfIdentifier, signInIpLimit } from './rate-limits.ts';
import { hit, waitsIfReached } from '../../store/rate-limits.ts';
import type { FapiRequestInfo } from '../context.ts';
import type { IdentityDeps } from '../../deps.ts';
import { clientCreationLimit } from '../../abuse/client-creation.ts';
import { assertRedirectParams, mayRedirectToPopup } from '../redirect-params.ts';
import { signInWithTicket } from '../tickets/sign-in-ticket.ts';
import { isResetPasswordStrategy, RESET_PASSWORD_STRATEGIES } from '../../password-reset/reset-factors.ts';
import { sendEmailLink } from '../email-links/send-email-link.ts';
import { prepareResetPasswordFactor } from './reset-password-factor.ts';
import { preparePhoneCodeFactor } from './phone-code-factor.ts';
import { normalizeSignInIdentifier } from '../../phone-numbers/phone-number.ts';
import { isSocialStrategy } from '../oauth/start-external-verification.ts';
import { startSocialSignIn } from '../oauth/start-social-sign-in.ts';
import { transferSignUpToSignIn } from '../oauth/social-transfers.ts';
import {
  isEnterpriseSsoIdentifier,
  signInWithEnterpriseSso,
} from '../enterprise-sso/sign-in-with-enterprise-sso.ts';
import { isEnterpriseSsoStrategy } from '../enterprise-sso/start-enterprise-sso.ts';
import { GOOGLE_ONE_TAP } from '../../social/google-one-tap.ts';
import { signInWithGoogleOneTap } from '../oauth/google-one-tap.ts';
import { preparePasskeyFactor, startPasskeySignIn } from '../passkeys/sign-in-with-passkey.ts';
import { formInput } from '../form-input.ts';

const SUPPORTED_STRATEGIES = new Set([
  'password',
  'email_code',
  'email_link',
  'phone_code',
  'ticket',
  GOOGLE_ONE_TAP,
  'passkey',
  ...RESET_PASSWORD_STRATEGIES,
]);

/** POST /client/sign_ins — identifier first; optionally the password at once ("instant password"). */
export const createSignInRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sign_ins',
  auth: 'client',
  permission: null,
  input: {
    body: formInput({
      identifier: 'text',
      password: 'password',
      strategy: 'enum',
      ticket: 'token',
      redirect_url: 'url',
      action_complete_redirect_url: 'url',
    }),
  },
  // Every sign-in counts against its address's limit first (as a route's `rateLimits` would, but with the
  // instant password's first read). "Instant password": the password checked before the transaction, the
  // dummy hash of an unknown identifier too. Anything unusual (another strategy, a malformed form) is left
  // to the handler.
  async beforeTransaction(req, deps) {
    const now = deps.clock();
    const counted = signInIpLimit(deps.config, req.ip);
    const instant = instantPassword(req, deps);
    if (!instant) {
      const wait = await hit(deps.db, counted, now);
      if (wait > 0) throw errors.tooManyRequests(wait);
      return {};
    }
    const { identifier, password } = instant;
    const { wait, user, limitReached } = await signInCandidate(
      deps.db,
      identifier,
      { counted, limit: identifierLimit(deps.config, identifier) },
      now,
    );
    if (wait > 0) throw errors.tooManyRequests(wait);
    // Past the identifier's limit the handler refuses it: no hash for that.
    if (limitReached) return {};
    try {
      if (user) return await precheckPassword(deps, user, password);
      // The dummy hash of an unknown identifier (see the handler), spent here rather than in the transaction.
      await verifyPassword(null, password);
      return { passwordCheck: { passwordHash: null, password, ok: false } };
    } catch (err) {
      if (isPasswordHashingBusy(err)) throw err;
      return {};
    }
  },
  async handler(ctx) {
    await assertRedirectParams(ctx.tx, ctx.body, ctx.deps, {
      popup: mayRedirectToPopup(field(ctx.body, 'strategy')),
    });
    // A client made by this request has no session yet, nor any account that knows it.
    const newClient = ctx.client === null;
    const identifier = normalizeSignInIdentifier(field(ctx.body, 'identifier'), {
      testMode: ctx.deps.config.mode === 'development',
    });
    const strategy = field(ctx.body, 'strategy');
    // A new browser naming an account meets two limits, the new clients of its address and the
    // identifier's: read at once, and with the account when the form signs in with one.
    let account: Owner | null | undefined;
    if (newClient && identifier) {
      const limits = [
        clientCreationLimit(ctx.deps.config.clientCreationsPerIp, ctx.ip),
        identifierLimit(ctx.deps.config, identifier),
      ];
      if (!strategy || strategy === 'password') {
        const read = await loadOwnerByIdentifierWithLimits(ctx.tx, identifier, limits, ctx.now);
        account = read.account;
        ctx.limitsRead(read.waits);
      } else {
        ctx.limitsRead(await waitsIfReached(ctx.tx, limits, ctx.now));
      }
    }
    const client = await ctx.ensureClient();
    if (
      strategy &&
      !SUPPORTED_STRATEGIES.has(strategy) &&
      !isSocialStrategy(strategy) &&
      !isEnterpriseSsoStrategy(strategy)
    ) {
      throw errors.paramValueInvalid(
        'strategy',
        `The verification strategy "${strategy}" is not enabled for this application.`,
      );
    }
    // Tickets check the signed-in session themselves: an actor token replaces it (impersonation).
    if (strategy === 'ticket') return signInWithTicket(ctx, client, field(ctx.body, 'ticket'));
    // Single-session: one signed-in session per browser (multi-session: checked once the account is known).
    if (!newClient) await assertMayOpenSession(ctx, client.id, null);
    if (field(ctx.body, 'transfer') === 'true') return transferSignUpToSignIn(ctx, client);
    if (isSocialStrategy(strategy)) return startSocialSignIn(ctx, client.id, strategy);
    if (strategy === GOOGLE_ONE_TAP) return signInWithGoogleOneTap(ctx, client, field(ctx.body, 'token'));
    // The passkey button and autofill: the passkey will name the account.
    if (strategy === 'passkey' && !identifier) return startPasskeySignIn(ctx, client);
    if (!identifier) {
      // `identifier=` sent empty (a web3 button with no wallet installed): clerk-js shows "no web3 wallet found".
      if (strategy || has(ctx.body, 'identifier')) throw errors.paramMissing('identifier');
      // An empty body starts over.
      const blank = await createSignIn(ctx.tx, {
        clientId: client.id,
        status: 'needs_identifier',
        identifier: null,
        userId: null,
        now: ctx.now,
      });
      await ctx.updateClient({ sign_in_id: blank.id });
      return signInResponse(ctx, blank);
    }

    // A blocklisted identifier (or an address at a blocklisted domain) signs in by no strategy.
    await assertMaySignInWith(ctx.tx, identifier);
    // An address at an enterprise connection's domain signs in at its IdP, and nowhere else.
    if (isEnterpriseSsoStrategy(strategy) || isEnterpriseSsoIdentifier(ctx, identifier)) {
      return signInWithEnterpriseSso(ctx, client, identifier, strategy, newClient);
    }
    if (account === undefined) account = await loadOwnerByIdentifier(ctx.tx, identifier);
    const user = account?.user ?? null;
    await limitSignInsOfIdentifier(ctx, identifier, newClient ? null : user);
    if (!account || !user) {
      // A password sent with an unknown identifier is hashed all the same, so that a guess costs the
      // same time whether the account exists (the answer itself is Clerk's form_identifier_not_found).
      const password = rawField(ctx.body, 'password');
      if (password !== undefined) await checkPassword(ctx.prepared, null, password);
      return { error: errors.identifierNotFound() };
    }
    await assertNotLockedOut(ctx, user);
    if (!newClient) await assertMayOpenSession(ctx, client.id, user.id);

    const start = {
      clientId: client.id,
      status: 'needs_first_factor' as const,
      identifier,
      userId: user.id,
      now: ctx.now,
    };
    const password = rawField(ctx.body, 'password');
    if (strategy === 'password' || (password !== undefined && !strategy)) {
      if (password === undefined) throw errors.paramMissing('password');
      // Written once, by the attempt's outcome (a right password: complete, with its session).
      const attempted = newSignIn(start);
      const result = await attemptPassword(ctx, attempted, account, password);
      // A sign-in that goes on (a wrong password, a second factor, a new password to set) stays on the
      // client; a complete one has left it already (openSession). Attached only now: one write less.
      if (!isCompleteSignIn(result)) {
        await ensureSignInSaved(ctx.tx, attempted);
        await ctx.updateClient({ sign_in_id: attempted.id });
      }
      return result;
    }
    let signIn = await createSignIn(ctx.tx, start);
    await ctx.updateClient({ sign_in_id: signIn.id });

    // A link or a reset code at once (custom flows): as prepare_first_factor, to the typed address.
    if (strategy === 'email_link') {
      const emails = (await emailAddressesOf(ctx.tx, [user.id])).get(user.id) ?? [];
      const typed = emails.find((e) => e.email_address.toLowerCase() === identifier);
      const email = emailOf(emails, typed?.id, user.primary_email_address_id);
      const link = await sendEmailLink(ctx, {
        purpose: 'sign_in',
        attemptId: signIn.id,
        email: email.email_address,
        redirectUrl: field(ctx.body, 'redirect_url'),
        recipient: user,
      });
      return signInResponse(
        ctx,
        await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: link }, ctx.now),
        account,
      );
    }
    if (isResetPasswordStrategy(strategy)) return prepareResetPasswordFactor(ctx, signIn, user, strategy);
    if (strategy === 'phone_code') return preparePhoneCodeFactor(ctx, signIn, user);
    if (strategy === 'passkey') return preparePasskeyFactor(ctx, signIn, account);

    if (password !== undefined) return attemptPassword(ctx, signIn, account, password);
    if (strategy === 'email_code') {
      const emails = (await emailAddressesOf(ctx.tx, [user.id])).get(user.id) ?? [];
      const email = emailOf(emails, undefined, user.primary_email_address_id);
      const verification = await sendEmailCode(ctx, {
        subject: `sign_in:${signIn.id}:email_code`,
        email: email.email_address,
        purpose: 'sign_in',
        recipient: user,
      });
      signIn = await updateSignIn(ctx.tx, signIn.id, { first_factor_verification: verification }, ctx.now);
    }
    return signInResponse(ctx, signIn, account);
  },
};

/** The identifier and password of an instant-password sign-in, if the form is one (null otherwise). */
function instantPassword(
  req: FapiRequestInfo,
  deps: IdentityDeps,
): { identifier: string; password: string } | null {
  try {
    const password = rawField(req.body, 'password');
    const strategy = field(req.body, 'strategy');
    if (password === undefined || (strategy && strategy !== 'password')) return null;
    const identifier = normalizeSignInIdentifier(field(req.body, 'identifier'), {
      testMode: deps.config.mode === 'development',
    });
    return identifier ? { identifier, password } : null;
  } catch {
    return null;
  }
}
