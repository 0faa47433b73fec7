import type { InstanceSettings } from '../instance/settings/schema.ts';
import type { UserRow } from '../store/rows.ts';
import type { Web3WalletRow } from '../store/web3-wallets.ts';
import { enabledWeb3Strategies } from './web3-strategies.ts';

/** What a sign-in's web3 first factors are made of: the account's wallets, and the instance's strategies. */
export interface Web3FactorSource {
  wallets: Web3WalletRow[];
  strategies: readonly string[];
}

export function web3FactorSource(
  settings: Pick<InstanceSettings, 'web3'>,
  owner: { web3Wallets: Web3WalletRow[] } | undefined,
): Web3FactorSource {
  return { wallets: owner?.web3Wallets ?? [], strategies: enabledWeb3Strategies(settings) };
}

/** The verified wallet of the account at the address a sign-in was started with, if it was one. */
export function identifiedWeb3Wallet(
  wallets: Web3WalletRow[],
  identifier: string | null,
): Web3WalletRow | undefined {
  if (!identifier) return undefined;
  const typed = identifier.toLowerCase();
  return wallets.find((w) => w.verified_at && w.web3_wallet.toLowerCase() === typed);
}

/**
 * `supported_first_factors` of a sign-in started with a wallet's address: its signature, once per wallet
 * app the instance offers (clerk-js looks up the strategy of the button pressed, and one key signs the
 * same in any app). A sign-in started with another identifier offers no wallet.
 */
export function web3FirstFactorsFor(
  user: Pick<UserRow, 'primary_web3_wallet_id'>,
  source: Web3FactorSource,
  identifier: string | null,
) {
  const wallet = identifiedWeb3Wallet(source.wallets, identifier);
  if (!wallet) return [];
  return source.strategies.map((strategy) => ({
    strategy,
    web3_wallet_id: wallet.id,
    safe_identifier: wallet.web3_wallet,
    primary: wallet.id === user.primary_web3_wallet_id,
  }));
}
