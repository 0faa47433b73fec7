import { phoneNumberJSON } from '../../../serializers/phone-number.ts';
import type { FapiRoute } from '../../context.ts';
import { ownPhoneNumber } from './own-phone-number.ts';

/** GET /me/phone_numbers/:id — `phoneNumber.reload()`. */
export const getPhoneNumberRoute: FapiRoute = {
  method: 'GET',
  path: '/me/phone_numbers/:id',
  async handler(ctx) {
    const { phone } = await ownPhoneNumber(ctx);
    return { response: phoneNumberJSON(phone) };
  },
};
