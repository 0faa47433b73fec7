/**
 * What the CLI needs to issue and revoke actor tokens, whichever way it reaches the instance: the
 * database itself, or the Backend API of the server that has it open.
 */
export interface UserSummary {
  id: string;
  name: string | null;
  email: string | null;
}

export interface NewActorToken {
  /** The user signed in by the link. */
  userId: string;
  /** The operator acting as them: the session's `actor.sub`. */
  actorId: string;
  expiresInSeconds?: number;
  sessionMaxDurationInSeconds?: number;
}

export interface ActorTokenAdmin {
  /** Where the command went, said to the operator (never a secret). */
  readonly via: string;
  /** By id (`user_…`) or by verified email address; null when there is none. */
  findUser(idOrEmail: string): Promise<UserSummary | null>;
  createActorToken(input: NewActorToken): Promise<{ id: string; url: string }>;
  revokeActorToken(id: string): Promise<{ id: string; status: string }>;
  close(): Promise<void>;
}

/** A failure to report to the operator as it is (the instance's own message), with exit status 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    /** The HTTP status behind it, when it came from the Backend API. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export const isUserId = (value: string) => value.startsWith('user_');
