import type { ConsoleSettings } from './console-settings.ts';

/** What the console's operator check reads of a user (the Backend API's user JSON). */
export interface OperatorCandidate {
  id: string;
  email_addresses: { email_address: string; verification: { status: string } | null }[];
}

/**
 * Whether the settings name this user an operator: by id, or by one of the user's **verified** addresses
 * (an address someone merely typed into a profile proves nothing). No operators: nobody.
 */
export function isOperator(settings: ConsoleSettings | undefined, user: OperatorCandidate): boolean {
  const operators = settings?.operators ?? [];
  if (operators.includes(user.id)) return true;
  const named = new Set(operators.filter((o) => o.includes('@')).map((o) => o.toLowerCase()));
  return user.email_addresses.some(
    (a) => a.verification?.status === 'verified' && named.has(a.email_address.toLowerCase()),
  );
}
