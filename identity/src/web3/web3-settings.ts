import { z } from '@app/contract';

/** The wallets clerk-js 5.90.0 can drive from an injected provider (Base needs its own SDK's popup). */
export const WEB3_PROVIDERS = ['metamask', 'coinbase_wallet', 'okx_wallet'] as const;
export type Web3Provider = (typeof WEB3_PROVIDERS)[number];

/**
 * Web3 wallets (Clerk's dashboard → User & authentication → Web3). Absent: no wallet button. Each provider
 * listed becomes a sign-in button (`web3_<provider>_signature`) and may be added in <UserProfile/>.
 */
export const web3Settings = z
  .object({
    enabled: z.boolean().default(true),
    providers: z.array(z.enum(WEB3_PROVIDERS)).min(1).max(WEB3_PROVIDERS.length),
  })
  .strict();
export type Web3Settings = z.output<typeof web3Settings>;
