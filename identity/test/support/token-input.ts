import type { SessionTokenInput } from '../../src/instance/session-token.ts';

/**
 * What minting a token needs for a session that need not exist (a token of another instance, one already
 * expired): an active session without an organisation, its user with nothing but an id.
 */
export function bareTokenInput(input: {
  sessionId: string;
  userId: string;
  azp: string | null;
  now: Date;
}): SessionTokenInput {
  return {
    session: { id: input.sessionId, user_id: input.userId, status: 'active', actor: null },
    user: {
      id: input.userId,
      external_id: null,
      first_name: null,
      last_name: null,
      username: null,
      image_id: null,
      public_metadata: {},
      unsafe_metadata: {},
      created_at: input.now,
      updated_at: input.now,
      primary_email_address: null,
      primary_phone_number: null,
    },
    organization: null,
    fva: [0, -1],
    azp: input.azp,
    now: input.now,
  };
}
