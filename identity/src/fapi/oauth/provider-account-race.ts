import { WorkOutsideTransaction } from '../work-outside-transaction.ts';

const UNIQUE_VIOLATION = '23505';
/** The unique index on (provider, provider_user_id) of external_accounts (migration 015). */
const PROVIDER_ACCOUNT_KEY = 'external_accounts_provider_key';

/**
 * A write that makes an external account name a provider's account (a link, a completed connection).
 * Two requests may decide at the same moment that the provider's account is nobody's yet (two users
 * connecting it, two browsers signing up with it): the unique index lets one through and fails the
 * other's statement, which aborts its transaction. That request is then run again from the start in a
 * new transaction (fapi/plugin.ts, as for work outside the transaction: everything it wrote is rolled
 * back), where it reads the winner's account and answers as if it had come second
 * (`external_account_exists`, or a sign-in to the account's owner). Nothing is half-written and no 500.
 */
export async function decidedAgainIfTaken<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    const { code, constraint } = err as { code?: unknown; constraint?: unknown };
    if (code === UNIQUE_VIOLATION && (constraint === undefined || constraint === PROVIDER_ACCOUNT_KEY)) {
      throw new WorkOutsideTransaction(() => Promise.resolve({}));
    }
    throw err;
  }
}
