/** Where a sign-in step's navigation to the site root really means "back to the first step". */
export interface PageLocation {
  pathname: string;
  hash: string;
}

/**
 * clerk-js sends a locked account from a factor step back to the first step with the error to show
 * (`__internal_navigateWithError('..')`), resolving `..` against the page URL. With our hash-routed
 * `/sign-in#/factor-one` that is the site root, where no card shows the error. True for exactly that
 * navigation: then the first step of the same card is the place to go.
 */
export function isSignInStepReturn(to: string, at: PageLocation): boolean {
  return to === '/' && at.pathname === '/sign-in' && /^#\/factor-(one|two)(\/|$)/.test(at.hash);
}
