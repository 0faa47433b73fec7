import type { SignUpRow } from '../store/rows.ts';
import { verificationJSON } from '../serializers/verification.ts';
import { WEB3_PROVIDERS } from './web3-settings.ts';
import { web3StrategyOf } from './web3-strategies.ts';

/** `verifications.web3_wallet` of a sign-up: its nonce as `message` once prepared. */
export function signUpWeb3VerificationJSON(s: Pick<SignUpRow, 'web3_wallet' | 'web3_wallet_verification'>) {
  if (!s.web3_wallet) return null;
  const v = s.web3_wallet_verification ?? null;
  return verificationJSON(v ?? { status: 'unverified', strategy: null, attempts: null, expire_at: null }, {
    message: v?.message ?? null,
    next_action: v?.status === 'verified' ? '' : v?.message ? 'needs_attempt' : 'needs_prepare',
    supported_strategies: v?.strategy ? [v.strategy] : WEB3_PROVIDERS.map(web3StrategyOf),
  });
}
