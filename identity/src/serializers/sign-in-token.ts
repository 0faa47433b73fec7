import type { SignInTokenRow } from '../store/rows.ts';
import { ms } from './verification.ts';

/**
 * Clerk's SignInTokenJSON (`@clerk/backend`'s SignInToken). `token` and `url` are known only to the call
 * that created it (only its hash is kept), so later answers carry them as empty strings.
 */
export function signInTokenJSON(row: SignInTokenRow, issued: { token: string; url: string } | null = null) {
  return {
    object: 'sign_in_token',
    id: row.id,
    user_id: row.user_id,
    status: row.status,
    token: issued?.token ?? '',
    url: issued?.url ?? '',
    created_at: ms(row.created_at),
    updated_at: ms(row.updated_at),
  };
}
