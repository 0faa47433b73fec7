import type { IdentityConfig } from '../../../config.ts';
import type { FapiRoute } from '../../context.ts';
import { attemptPhoneVerificationRoute } from './attempt-verification.ts';
import { createPhoneNumberRoute } from './create-phone-number.ts';
import { deletePhoneNumberRoute } from './delete-phone-number.ts';
import { getPhoneNumberRoute } from './get-phone-number.ts';
import { preparePhoneVerificationRoute } from './prepare-verification.ts';
import { updatePhoneNumberRoute } from './update-phone-number.ts';

/** The current user's phone numbers (`/me/phone_numbers` …), as <UserProfile/> manages them. */
export function phoneNumberRoutes(config: IdentityConfig): FapiRoute[] {
  return [
    createPhoneNumberRoute,
    getPhoneNumberRoute,
    preparePhoneVerificationRoute,
    attemptPhoneVerificationRoute(config),
    updatePhoneNumberRoute,
    deletePhoneNumberRoute,
  ];
}
