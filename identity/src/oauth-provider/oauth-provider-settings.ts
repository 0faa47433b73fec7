import { z } from '@app/contract';
import { ClerkError } from '../errors.ts';
import { secretReference } from '../instance/settings/secret-reference.ts';
import { checkedRedirectUri, checkedScopes } from './oauth-applications.ts';

/** A check of oauth-applications.ts as a zod refinement, so a bad file is refused before it is stored. */
function byRule(check: (value: string) => unknown) {
  return (value: string, ctx: z.RefinementCtx) => {
    try {
      check(value);
    } catch (err) {
      if (!(err instanceof ClerkError)) throw err;
      ctx.addIssue({ code: 'custom', message: err.longMessage });
    }
  };
}

/**
 * OAuth applications declared as code (docs/oauth-provider.md). At every start the declared ones become
 * the `oauth_applications` rows marked `declared`, matched by client id: added, changed to the file's
 * values, and removed when no longer declared. Applications made through the Backend API are left alone.
 * A confidential application's secret is named by an environment variable, never written here.
 */
export const oauthApplicationSettings = z
  .object({
    /** The client id, chosen once (`partner-portal`): the relying party's configuration holds it. */
    clientId: z
      .string()
      .regex(/^[A-Za-z0-9._-]{3,64}$/, 'must be 3 to 64 letters, digits, dots, dashes or underscores.'),
    name: z.string().trim().min(1).max(256),
    /** Public: PKCE is its proof and it has no secret (a CLI, a single-page app, a native app). */
    public: z.boolean().default(false),
    /** Space-separated, as the Backend API takes them. */
    scopes: z.string().superRefine(byRule(checkedScopes)).default('profile email'),
    redirectUris: z
      .array(z.string().superRefine(byRule(checkedRedirectUri)))
      .max(20)
      .default([]),
    consentScreenEnabled: z.boolean().default(true),
    /** Required for a confidential application, refused for a public one. */
    clientSecret: secretReference.optional(),
  })
  .strict()
  .refine((app) => app.public === (app.clientSecret === undefined), {
    message: 'a confidential application names its clientSecret ({ "env": "…" }); a public one has none.',
    path: ['clientSecret'],
  });

export const oauthApplicationsSettings = z
  .array(oauthApplicationSettings)
  .max(100)
  .refine((apps) => new Set(apps.map((a) => a.clientId)).size === apps.length, {
    message: 'each clientId is declared once.',
  });
export type OAuthApplicationSettings = z.output<typeof oauthApplicationSettings>;
