import type { MailLanguage } from '../../mail/language.ts';
import { sha256 } from '../../crypto/secrets.ts';
import { userIdOfClientRow } from '../../store/clients.ts';
import { findUserById } from '../../store/users.ts';
import type { FapiReadRequest } from '../context.ts';
import { readerLanguage } from '../reader-language.ts';

/**
 * The reader's language on the plan routes, which need no session: the signed-in user's (the session
 * `_clerk_session_id` names, else the client's last active one) is read only when no cookie decides.
 */
export function planReaderLanguage(req: FapiReadRequest): Promise<MailLanguage> {
  return readerLanguage(req, async () => {
    if (!req.clientToken) return null;
    const userId = await userIdOfClientRow(req.deps.db, 'sessions', req.sessionId, sha256(req.clientToken));
    return userId ? findUserById(req.deps.db, userId) : null;
  });
}
