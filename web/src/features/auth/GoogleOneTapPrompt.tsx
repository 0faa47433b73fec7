import { GoogleOneTap } from '@clerk/clerk-react';

/**
 * Google's One Tap prompt for signed-out visitors (clerk-js's <GoogleOneTap/>). It prompts only when
 * the instance offers One Tap (`display_config.google_one_tap_client_id`, the Google provider's
 * `oneTap` setting) and nobody is signed in; otherwise it renders nothing and loads nothing (clerk-js
 * fetches Google's script only then, and only when `window.google` is not already there). A person
 * signed in or up by it goes where the sign-in page sends everyone: the dashboard, whose rule takes a
 * newcomer without an organisation to create one.
 */
export function GoogleOneTapPrompt() {
  return <GoogleOneTap signInForceRedirectUrl="/dashboard" signUpForceRedirectUrl="/dashboard" />;
}
