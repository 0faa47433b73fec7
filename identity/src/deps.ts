import type { IdentityConfig } from './config.ts';
import type { Database } from './db/database.ts';
import type { InstanceKeys } from './instance/instance-keys.ts';
import type { TokenContext } from './instance/session-token.ts';
import type { SigningKey } from './instance/signing-keys.ts';
import type { Mailer } from './mail/mailer.ts';
import type { SmsSender } from './sms/sms-sender.ts';

/** Everything a request handler may use; built once at start-up, holds no per-user state. */
export interface IdentityDeps {
  db: Database;
  config: IdentityConfig;
  keys: InstanceKeys;
  signingKey: SigningKey;
  tokens: TokenContext;
  mailer: Mailer;
  /** Null in production without an SMS provider: phone numbers are then switched off. */
  sms: SmsSender | null;
  /** Suffix of clerk-js's suffixed cookie names, derived from the publishable key. */
  cookieSuffix: string;
  clock: () => Date;
  /** Absolute URL of the default profile image. */
  avatarUrl: string;
  /** Absolute URL of the Frontend API (public URL + mount path), for image URLs. */
  fapiBase: string;
}
