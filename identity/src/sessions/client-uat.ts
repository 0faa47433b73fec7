import type { Queryable } from '../db/database.ts';
import type { ClientRow } from '../store/rows.ts';
import { signedInSessionsOfClient } from '../store/sessions.ts';

/** `__client_uat` in seconds: the client's last change while signed in, 0 when signed out. */
export async function clientUat(tx: Queryable, client: ClientRow, now: Date): Promise<number> {
  return clientUatOf(client, (await signedInSessionsOfClient(tx, client.id, now)).length);
}

/** `__client_uat` of a client with `signedInSessions` signed-in sessions (as its JSON lists them). */
export function clientUatOf(client: ClientRow, signedInSessions: number): number {
  return signedInSessions ? Math.floor(client.updated_at.getTime() / 1000) : 0;
}
