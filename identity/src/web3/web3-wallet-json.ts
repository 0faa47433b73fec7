import { ms, verificationJSON } from '../serializers/verification.ts';
import type { Web3WalletRow } from '../store/web3-wallets.ts';

/** Clerk's Web3WalletJSON: `verification.strategy` tells <UserProfile/> which wallet app it is. */
export function web3WalletJSON(w: Web3WalletRow) {
  return {
    object: 'web3_wallet',
    id: w.id,
    web3_wallet: w.web3_wallet,
    verification: w.verified_at
      ? {
          object: 'verification',
          status: 'verified',
          strategy: w.strategy,
          attempts: null,
          expire_at: null,
        }
      : verificationJSON(w.verification),
    created_at: ms(w.created_at),
    updated_at: ms(w.updated_at),
  };
}
