import {
  MEMBERS_PATH,
  newMemberAnswerSchema,
  type NewMemberAnswer,
  type NewMemberRequest,
} from '@app/contract';
import type { HttpClient } from '../../../../lib/http/index.ts';
import { productApiSend } from '../../../../lib/product-api.ts';

export type { NewMemberAnswer, NewMemberRequest };

/**
 * POST /api/organizations/current/members: the account with this verified address joins the active
 * organisation at once; anyone else is sent an invitation. Refusals are HttpErrors with the contract's code.
 */
export function addMemberByEmail(client: HttpClient, input: NewMemberRequest): Promise<NewMemberAnswer> {
  return productApiSend(client, 'POST', MEMBERS_PATH, input, newMemberAnswerSchema);
}
