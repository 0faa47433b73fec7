import { ClerkProvider } from '@clerk/clerk-react';
import { useEffect } from 'react';
import { Outlet, useNavigate, type NavigateFunction } from 'react-router';
import { isSignInStepReturn } from '../features/auth/sign-in-step-return.ts';
import { isSsoCallbackStep } from '../features/auth/sso-callback-step.ts';
import { ClerkHardcodedWordsSync } from '../features/language/ClerkHardcodedWordsSync.tsx';
import { LanguageSync } from '../features/language/LanguageSync.tsx';
import { PhoneCountrySync } from '../features/language/PhoneCountrySync.tsx';
import { useLanguage } from '../lib/i18n/useLanguage.ts';
import { ForgetQueriesOnSignOut } from '../lib/query/ForgetQueriesOnSignOut.tsx';
import { AuthStateProvider } from '../state/auth/AuthStateProvider.tsx';
import { useAppConfig } from './AppConfigContext.tsx';
import { demoteClerkSectionHeadings } from './clerk-section-headings.ts';
import { useClerkLocalization } from './clerk-localization.ts';

// Defined once: ClerkProvider pushes appearance changes to clerk-js whenever the object identity changes.
const appearance = {
  variables: { colorPrimary: '#1f5f8b', fontFamily: 'inherit', borderRadius: '0.5rem' },
};

/**
 * Clerk awaits this navigation and only then publishes the new auth state. react-router normally renders
 * the new page in a transition, so on sign-out the dashboard was still mounted when "signed out" arrived and
 * its guard sent the user to /sign-in instead of afterSignOutUrl. flushSync commits the new page first;
 * the microtask keeps flushSync out of React effects (Clerk also navigates from those), where it cannot flush.
 */
function commitNavigation(navigate: NavigateFunction, to: string, replace: boolean): Promise<void> {
  if (isSsoCallbackStep(to)) {
    window.location.assign(to);
    return Promise.resolve();
  }
  if (isSignInStepReturn(to, window.location)) {
    // Clerk's hash router follows `hashchange`, which react-router's pushState does not fire.
    window.location.hash = '';
    return Promise.resolve();
  }
  return Promise.resolve().then(() => navigate(to, { replace, flushSync: true }));
}

/**
 * Rendered as the root route element so that Clerk can navigate through react-router:
 * hash-routed sign-in steps and post-sign-in redirects then stay client-side instead of reloading the page.
 */
export function ClerkProviderWithRouter() {
  const { publishableKey, proxyUrl, clerkJSUrl, allowedRedirectOrigins = [] } = useAppConfig();
  const navigate = useNavigate();
  const { language } = useLanguage();
  // The Clerk components speak the product's language.
  const localization = useClerkLocalization(language);
  // One level-one heading per page, profiles included.
  useEffect(demoteClerkSectionHeadings, []);

  return (
    <ClerkProvider
      publishableKey={publishableKey}
      {...(proxyUrl !== null ? { proxyUrl } : {})}
      // A sign-in started on a satellite goes back there; without satellites, clerk-js's own default.
      {...(allowedRedirectOrigins.length > 0 ? { allowedRedirectOrigins } : {})}
      // Always our own copy of clerk-js, never the CDN default.
      clerkJSUrl={clerkJSUrl}
      telemetry={false}
      appearance={appearance}
      {...(localization ? { localization } : {})}
      afterSignOutUrl="/"
      taskUrls={{ 'choose-organization': '/tasks/choose-organization' }}
      signInUrl="/sign-in"
      signUpUrl="/sign-up"
      waitlistUrl="/waitlist"
      signInFallbackRedirectUrl="/dashboard"
      signUpFallbackRedirectUrl="/dashboard"
      routerPush={(to) => commitNavigation(navigate, to, false)}
      routerReplace={(to) => commitNavigation(navigate, to, true)}
    >
      <AuthStateProvider>
        <LanguageSync />
        <PhoneCountrySync />
        <ClerkHardcodedWordsSync />
        <ForgetQueriesOnSignOut />
        <Outlet />
      </AuthStateProvider>
    </ClerkProvider>
  );
}
