import type { ExternalAccountRow } from '../store/external-accounts.ts';
import type { EmailAddressRow } from '../store/rows.ts';
import { ms } from './verification.ts';

/**
 * Clerk's ExternalAccountJSON (<UserProfile/>'s connected accounts, @clerk/backend's
 * `user.externalAccounts`). `provider` drops the `oauth_` prefix, as Clerk's does (`google`,
 * `custom_acme`); `identification_id` is the user's address the account's email matches, if any.
 */
export function externalAccountJSON(x: ExternalAccountRow, emails: EmailAddressRow[]) {
  const email = x.email_address?.toLowerCase();
  return {
    object: 'external_account',
    id: x.id,
    provider: x.provider.replace(/^oauth_/, ''),
    identification_id: emails.find((e) => e.email_address.toLowerCase() === email)?.id ?? null,
    provider_user_id: x.provider_user_id ?? '',
    approved_scopes: x.approved_scopes,
    email_address: x.email_address ?? '',
    first_name: x.first_name ?? '',
    last_name: x.last_name ?? '',
    image_url: x.image_url ?? '',
    avatar_url: x.image_url ?? '',
    username: x.username,
    phone_number: null,
    public_metadata: {},
    label: null,
    verification: {
      object: 'verification',
      status: x.verification_status,
      strategy: x.provider,
      attempts: null,
      expire_at: x.verification_expire_at ? ms(x.verification_expire_at) : null,
      external_verification_redirect_url: null,
      error: x.verification_error,
    },
    created_at: ms(x.created_at),
    updated_at: ms(x.updated_at),
  };
}
