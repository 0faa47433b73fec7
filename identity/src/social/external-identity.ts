/** What a provider told us about the person who came back from it. */
export interface ExternalIdentity {
  strategy: string;
  providerUserId: string;
  email: string | null;
  /** Only an explicit assertion by the provider counts; an account is never linked on anything less. */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  imageUrl: string | null;
  approvedScopes: string;
  /**
   * The tokens issued with it, sealed (social/provider-tokens.ts `withSealedTokens`), while it waits on a
   * sign-in or sign-up for a transfer or a code: they reach the external account when it is linked. Never
   * a token in clear.
   */
  sealedTokens?: string;
}
