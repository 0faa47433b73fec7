import type { ActorTokenRow } from '../store/rows.ts';
import { ms } from './verification.ts';

/**
 * Clerk's ActorTokenJSON (`@clerk/backend`'s ActorToken). `token` and `url` are known only to the call
 * that created the token (only its hash is kept), so every later answer carries them as null.
 */
export function actorTokenJSON(row: ActorTokenRow, issued: { token: string; url: string } | null = null) {
  return {
    object: 'actor_token',
    id: row.id,
    status: row.status,
    user_id: row.user_id,
    actor: row.actor,
    token: issued?.token ?? null,
    url: issued?.url ?? null,
    created_at: ms(row.created_at),
    updated_at: ms(row.updated_at),
  };
}
