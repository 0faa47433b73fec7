import { z } from '@app/contract';
import { httpEndpoint as endpoint } from '../instance/settings/http-endpoint.ts';
import { secretReference } from '../instance/settings/secret-reference.ts';

/** `oauth_google`, `oauth_github`, `oauth_microsoft`, `oauth_apple`, or any `oauth_custom_<slug>`. */
export const SOCIAL_STRATEGY = /^oauth_(google|github|microsoft|apple|custom_[a-z0-9][a-z0-9_-]{0,40})$/;

/**
 * One social provider (Clerk's dashboard → SSO connections → social). The well-known providers have
 * default endpoints (social/providers.ts); every endpoint can be overridden, so a stand-in on this
 * machine can play any of them. A custom provider names its issuer (OpenID Connect discovery) or its
 * authorization, token and userinfo endpoints (plain OAuth 2).
 */
export const socialProviderSettings = z
  .object({
    enabled: z.boolean().default(true),
    clientId: z.string().min(1),
    clientSecret: secretReference,
    /** The scopes asked for; the provider's defaults when absent. */
    scopes: z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'must be one scope token.')).optional(),
    /** May be used to sign in (a button on <SignIn/> and <SignUp/>). */
    authenticatable: z.boolean().default(true),
    /** May create an account; when false only people who already have one can use it. */
    signUpAllowed: z.boolean().default(true),
    /** The button's label; the provider's name for well-known ones, the slug for custom ones. */
    name: z.string().min(1).max(64).optional(),
    issuer: endpoint.optional(),
    authorizationEndpoint: endpoint.optional(),
    tokenEndpoint: endpoint.optional(),
    userinfoEndpoint: endpoint.optional(),
    jwksUri: endpoint.optional(),
    /**
     * Google only: offer Google One Tap (`<GoogleOneTap/>`) with this provider's client id, and accept its
     * ID tokens (`strategy=google_one_tap`) verified against the same issuer and JWKS.
     */
    oneTap: z.boolean().optional(),
  })
  .strict();
export type SocialProviderSettings = z.output<typeof socialProviderSettings>;

/** The `social` slice: the providers keyed by Clerk strategy. */
export const socialSettings = z.record(z.string(), socialProviderSettings).superRefine((providers, ctx) => {
  for (const [strategy, p] of Object.entries(providers)) {
    if (!SOCIAL_STRATEGY.test(strategy)) {
      ctx.addIssue({
        code: 'custom',
        path: [strategy],
        message:
          'is not a social strategy: oauth_google, oauth_github, oauth_microsoft, oauth_apple or oauth_custom_<slug>.',
      });
    } else if (p.oneTap && strategy !== 'oauth_google') {
      ctx.addIssue({
        code: 'custom',
        path: [strategy, 'oneTap'],
        message: 'Google One Tap is offered by oauth_google only.',
      });
    } else if (
      strategy.startsWith('oauth_custom_') &&
      !p.issuer &&
      !(p.authorizationEndpoint && p.tokenEndpoint && p.userinfoEndpoint)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: [strategy],
        message:
          'a custom provider needs its issuer (OpenID Connect discovery) or authorizationEndpoint, tokenEndpoint and userinfoEndpoint.',
      });
    }
  }
});
