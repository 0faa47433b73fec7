import { emailAddressJSON } from '../../../serializers/user.ts';
import type { FapiRoute } from '../../context.ts';
import { ownEmailAddress } from './own-email-address.ts';
import { formInput } from '../../form-input.ts';

/** GET /me/email_addresses/:id — `emailAddress.reload()`. */
export const getEmailAddressRoute: FapiRoute = {
  method: 'GET',
  path: '/me/email_addresses/:id',
  auth: 'session',
  permission: null,
  input: { query: formInput() },
  async handler(ctx) {
    const { email } = await ownEmailAddress(ctx);
    return { response: emailAddressJSON(email) };
  },
};
