import type { InstanceSettings } from '../instance/settings/schema.ts';
import { WEB3_PROVIDERS, type Web3Provider } from './web3-settings.ts';

/** `web3_<provider>_signature`: the strategy clerk-js sends for a wallet app. */
export type Web3Strategy = `web3_${Web3Provider}_signature`;

export const web3StrategyOf = (provider: Web3Provider): Web3Strategy => `web3_${provider}_signature`;

/** Any web3 strategy clerk-js knows (Base included), enabled or not: routed to the web3 handlers. */
export const isWeb3Strategy = (strategy: string | undefined): boolean =>
  !!strategy && /^web3_[a-z_]+_signature$/.test(strategy);

/** The strategies this instance offers, in the order of its settings (none when web3 is off). */
export function enabledWeb3Strategies(settings: Pick<InstanceSettings, 'web3'>): Web3Strategy[] {
  const web3 = settings.web3;
  if (!web3?.enabled) return [];
  return web3.providers.filter((p) => WEB3_PROVIDERS.includes(p)).map(web3StrategyOf);
}

export function web3StrategyEnabled(
  settings: Pick<InstanceSettings, 'web3'>,
  strategy: string | undefined,
): strategy is Web3Strategy {
  return !!strategy && (enabledWeb3Strategies(settings) as string[]).includes(strategy);
}

/** Whether the instance offers web3 wallets at all. */
export const web3Enabled = (settings: Pick<InstanceSettings, 'web3'>): boolean =>
  enabledWeb3Strategies(settings).length > 0;
