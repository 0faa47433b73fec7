import { z } from '@app/contract';
import { secretReference as secretInEnv } from '../instance/settings/secret-reference.ts';

/**
 * One webhook endpoint (Clerk's dashboard → Webhooks): where events are delivered, which ones, and the
 * `whsec_` signing secret, named by the environment variable holding it (docs/webhooks.md).
 */
export const webhookEndpointSettings = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL.' }),
    /** Event types delivered (`user.created`…); every type when empty. */
    events: z
      .array(z.string().regex(/^[a-zA-Z]+\.[a-zA-Z_]+$/, 'must be an event type (user.created).'))
      .default([]),
    enabled: z.boolean().default(true),
    secret: secretInEnv,
    description: z.string().max(256).optional(),
  })
  .strict();
export type WebhookEndpointSettings = z.output<typeof webhookEndpointSettings>;

/** Endpoints keyed by id (`ep_<name>`); none when absent. */
export const webhookSettings = z
  .object({
    endpoints: z
      .record(
        z.string().regex(/^ep_[A-Za-z0-9_-]{1,64}$/, 'must be an endpoint id: ep_<name>.'),
        webhookEndpointSettings,
      )
      .default({}),
  })
  .strict();
export type WebhookSettings = z.output<typeof webhookSettings>;
