import type { FastifyRequest } from 'fastify';
import { errors } from '../../errors.ts';

/** The header naming the console operator a Backend API call is made for (docs/console.md). */
export const CONSOLE_OPERATOR_HEADER = 'x-console-operator';
/** The reason the operator gave (impersonation), percent-encoded UTF-8 (headers are Latin-1). */
export const CONSOLE_REASON_HEADER = 'x-console-reason';

const USER_ID = /^user_[0-9A-Za-z]{1,64}$/;
const MAX_REASON = 500;

/**
 * The operator a call is made for, as the product server's console names it. Trusted because only the
 * secret key reaches the Backend API (the plugin checked it before anything else): whoever holds the key
 * may act as anyone, and the header only says for whom the audit log should record the change. A header
 * that is not a user id, or a reason that is not percent-encoded text of at most 500 characters, is
 * refused (422) before the call runs.
 */
export function consoleOperatorOf(req: FastifyRequest): { userId: string; reason: string | null } | null {
  const operator = req.headers[CONSOLE_OPERATOR_HEADER];
  const encodedReason = req.headers[CONSOLE_REASON_HEADER];
  if (operator === undefined) {
    if (encodedReason !== undefined) {
      throw errors.paramValueInvalid(
        CONSOLE_REASON_HEADER,
        `${CONSOLE_REASON_HEADER} needs ${CONSOLE_OPERATOR_HEADER}.`,
      );
    }
    return null;
  }
  if (typeof operator !== 'string' || !USER_ID.test(operator)) {
    throw errors.paramFormatInvalid(CONSOLE_OPERATOR_HEADER, 'a user id');
  }
  if (encodedReason === undefined) return { userId: operator, reason: null };
  let reason: string;
  try {
    reason = typeof encodedReason === 'string' ? decodeURIComponent(encodedReason).trim() : '';
  } catch {
    reason = '';
  }
  if (!reason || reason.length > MAX_REASON || hasControlCharacter(reason)) {
    throw errors.paramValueInvalid(
      CONSOLE_REASON_HEADER,
      `${CONSOLE_REASON_HEADER} must be 1 to ${MAX_REASON} characters of text.`,
    );
  }
  return { userId: operator, reason };
}

/** A line break, a tab or any other C0 control character, or DEL: a reason is one line of text. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
