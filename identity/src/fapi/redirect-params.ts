import type { IdentityConfig } from '../config.ts';
import { errors } from '../errors.ts';
import { field, type FormBody } from './form.ts';
import { isAllowedRedirect as isAllowed } from '../http/redirects.ts';

const REDIRECT_PARAMS = ['redirect_url', 'action_complete_redirect_url', 'redirect_url_complete'] as const;

/** Rejects any redirect parameter that points off the allowed origins (spec §5). */
export function assertRedirectParams(body: FormBody, config: IdentityConfig): void {
  for (const name of REDIRECT_PARAMS) {
    const value = field(body, name);
    if (value !== undefined && !isAllowed(value, config)) {
      throw errors.paramValueInvalid(name, `${name} must point to an allowed origin of this application.`);
    }
  }
}
