import {
  MEMBERS_PATH,
  newMemberAnswerSchema,
  type NewMemberAnswer,
  type NewMemberRequest,
} from '@app/contract';
import type { HttpClient } from '../../../../lib/http/index.ts';
import { parseAnswer } from '../../../../lib/product-api.ts';

export type { NewMemberAnswer, NewMemberRequest };

/**
 * POST /api/organizations/current/members: the account with this verified address joins the active
 * organisation at once; anyone else is sent an invitation. Refusals are HttpErrors with the contract's code.
 */
export async function addMemberByEmail(
  client: HttpClient,
  input: NewMemberRequest,
): Promise<NewMemberAnswer> {
  const body = await client.json<unknown>(MEMBERS_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
    cache: 'no-store',
  });
  return parseAnswer(newMemberAnswerSchema, body, MEMBERS_PATH);
}
