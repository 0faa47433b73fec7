/**
 * clerk-js's popup sign-in ends by sending the window that opened the popup to its SSO callback, the
 * `<SignIn/>` or `<SignUp/>` step `#/sso-callback` with the query the callback reads (`intent`, the
 * force-redirect URLs), when the provider's answer needs more than a session (a new person's sign-up,
 * a second factor…). react-router would only push that URL: the page's query stays what the card read at
 * load, and a hash-routed card does not follow `pushState`. True for such a target (a path with its
 * query and hash, as clerk-js hands it to the router): the page is then loaded, as the provider's
 * redirect loads it in the redirect flow.
 */
export function isSsoCallbackStep(to: string): boolean {
  const hash = to.indexOf('#');
  return hash >= 0 && /^#\/sso-callback(\?|\/|$)/.test(to.slice(hash));
}
