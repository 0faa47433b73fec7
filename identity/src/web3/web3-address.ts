import { getAddress } from 'viem';
import { errors } from '../errors.ts';

/** `0x` and 40 hex digits, any case: an Ethereum address as wallets give it. */
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** Whether a sign-in identifier names a wallet rather than an email address, phone number or username. */
export const isWeb3Address = (value: string): boolean => ADDRESS_RE.test(value);

/**
 * The address of `raw` in its EIP-55 checksummed form, the one stored. Any case is accepted (a wallet
 * may give it in lower case): the checksum of mixed case is not enforced, since the address is compared
 * without regard to case anyway. Anything else is `form_param_format_invalid`.
 */
export function parseWeb3Address(raw: string, paramName: string): string {
  const value = raw.trim();
  if (!isWeb3Address(value)) throw errors.paramFormatInvalid(paramName, 'a valid web3 wallet address');
  return getAddress(value.toLowerCase());
}
