import { z } from '@app/contract';

/** An http(s) URL in a settings slice (a provider's or an identity provider's endpoint). */
export const httpEndpoint = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL.' });
