import { phoneNumberJSON } from '../../../serializers/phone-number.ts';
import type { FapiRoute } from '../../context.ts';
import { ownPhoneNumber } from './own-phone-number.ts';
import { formInput } from '../../form-input.ts';

/** GET /me/phone_numbers/:id — `phoneNumber.reload()`. */
export const getPhoneNumberRoute: FapiRoute = {
  method: 'GET',
  path: '/me/phone_numbers/:id',
  auth: 'session',
  permission: null,
  input: { query: formInput() },
  async handler(ctx) {
    const { phone } = await ownPhoneNumber(ctx);
    return { response: phoneNumberJSON(phone) };
  },
};
