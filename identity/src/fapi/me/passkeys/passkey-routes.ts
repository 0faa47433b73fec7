import type { FapiRoute } from '../../context.ts';
import { createPasskeyRoute } from './create-passkey.ts';
import { deletePasskeyRoute } from './delete-passkey.ts';
import { updatePasskeyRoute } from './update-passkey.ts';
import { verifyPasskeyRoute } from './verify-passkey.ts';

/** The user's passkeys, as <UserProfile/> → Security → Passkeys manages them. */
export const passkeyRoutes: FapiRoute[] = [
  createPasskeyRoute,
  verifyPasskeyRoute,
  updatePasskeyRoute,
  deletePasskeyRoute,
];
