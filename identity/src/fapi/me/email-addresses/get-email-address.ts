import { emailAddressJSON } from '../../../serializers/user.ts';
import type { FapiRoute } from '../../context.ts';
import { ownEmailAddress } from './own-email-address.ts';

/** GET /me/email_addresses/:id — `emailAddress.reload()`. */
export const getEmailAddressRoute: FapiRoute = {
  method: 'GET',
  path: '/me/email_addresses/:id',
  async handler(ctx) {
    const { email } = await ownEmailAddress(ctx);
    return { response: emailAddressJSON(email) };
  },
};
