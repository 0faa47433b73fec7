import { errors } from '../../errors.ts';
import { signUpJSON } from '../../serializers/sign-up.ts';
import type { SignUpRow } from '../../store/rows.ts';
import { updateSignUp, type SignUpChanges } from '../../store/sign-ups.ts';
import { web3WalletTaken } from '../../store/web3-wallets.ts';
import { parseWeb3Address } from '../../web3/web3-address.ts';
import { checkWeb3Signature, newWeb3Verification } from '../../web3/web3-signature.ts';
import { web3Enabled, web3StrategyEnabled } from '../../web3/web3-strategies.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { field } from '../form.ts';
import { completeIfReady } from '../sign-ups/complete-sign-up.ts';

/**
 * `web3_wallet` of a sign-up (clerk-js's fallback when the wallet signs no one in): the address, EIP-55
 * checksummed, refused when an account owns it (`form_identifier_exists`). A new address needs a new
 * signature. Refused as before when the instance offers no wallet.
 */
export async function web3SignUpChanges(
  ctx: FapiContext,
  existing: SignUpRow | null,
): Promise<SignUpChanges> {
  const raw = field(ctx.body, 'web3_wallet');
  if (raw === undefined) return {};
  if (!web3Enabled(ctx.deps.settings.settings)) {
    throw errors.paramValueInvalid('web3_wallet', 'web3 wallet is not enabled for this application.');
  }
  const address = parseWeb3Address(raw, 'web3_wallet');
  if (address === existing?.web3_wallet) return {};
  if (await web3WalletTaken(ctx.tx, address)) throw errors.identifierExists('web3_wallet');
  return { web3_wallet: address, web3_wallet_verification: null };
}

/** The wallet of a sign-up and a strategy this instance offers, or the request is refused. */
function signUpWallet(ctx: FapiContext, signUp: SignUpRow, strategy: string): string {
  if (!web3StrategyEnabled(ctx.deps.settings.settings, strategy)) {
    throw errors.paramValueInvalid(
      'strategy',
      `The verification strategy "${strategy}" is not enabled for this application.`,
    );
  }
  if (!signUp.web3_wallet) {
    throw errors.paramValueInvalid('strategy', 'This sign-up has no web3 wallet to verify.');
  }
  return signUp.web3_wallet;
}

/** `prepare_verification {strategy: 'web3_<p>_signature'}`: a fresh nonce as `verifications.web3_wallet.message`. */
export async function prepareWeb3SignUpVerification(
  ctx: FapiContext,
  signUp: SignUpRow,
  strategy: string,
): Promise<FapiResult> {
  signUpWallet(ctx, signUp, strategy);
  if (signUp.web3_wallet_verification?.status === 'verified') return { response: signUpJSON(signUp) };
  const verification = newWeb3Verification(strategy, ctx.now);
  return {
    response: signUpJSON(
      await updateSignUp(ctx.tx, signUp.id, { web3_wallet_verification: verification }, ctx.now),
    ),
  };
}

/**
 * `attempt_verification {strategy, signature}`: the wallet's signature of this sign-up's nonce verifies
 * the wallet; the sign-up completes when nothing else is missing (else `missing_requirements`, and
 * clerk-js asks for the rest at /sign-up#/continue). A wrong signature spends the nonce.
 */
export async function attemptWeb3SignUpVerification(
  ctx: FapiContext,
  signUp: SignUpRow,
  strategy: string,
): Promise<FapiResult> {
  const address = signUpWallet(ctx, signUp, strategy);
  const prepared = signUp.web3_wallet_verification ?? null;
  if (prepared?.status === 'verified') return completeIfReady(ctx, signUp);
  const check = await checkWeb3Signature({
    prepared,
    strategy,
    signature: field(ctx.body, 'signature'),
    address,
    now: ctx.now,
  });
  if (!check.ok) {
    if (check.verification) {
      await updateSignUp(ctx.tx, signUp.id, { web3_wallet_verification: check.verification }, ctx.now);
    }
    return { error: check.error };
  }
  const updated = await updateSignUp(
    ctx.tx,
    signUp.id,
    { web3_wallet_verification: check.verification },
    ctx.now,
  );
  return completeIfReady(ctx, updated);
}
