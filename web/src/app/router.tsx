import type { ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import { RequireSignedIn } from '../features/auth/RequireSignedIn.tsx';
import { modulePath, MODULES } from '../features/modules/modules.ts';
import { AppLayout } from './AppLayout.tsx';
import { preloadPageOf } from './lazy-page.tsx';
import { IDENTITY_ROUTE, SIGNED_IN_ROUTE } from './navigation/route-access.ts';
import { ClerkProviderWithRouter } from './ClerkProviderWithRouter.tsx';
import {
  ApiKeysPage,
  AuthorizedApplicationsPage,
  ChooseOrganizationTaskPage,
  ClientOrganizationsPage,
  ConsolePage,
  CreateOrganizationPage,
  DashboardPage,
  DiagnosticsPage,
  HelpIndexPage,
  HelpPage,
  LandingPage,
  MembersPage,
  ModulePage,
  NotFoundPage,
  OAuthConsentPage,
  OrganizationListPage,
  OrganizationProfilePage,
  PricingPage,
  SettingsPage,
  SignInPage,
  SignUpPage,
  SsoCallbackPage,
  WaitlistPage,
} from './pages.ts';
import { RouteErrorPage } from './RouteErrorPage.tsx';

/** A page for signed-in users: the navigation rule reads the handle, the guard only renders. */
const signedIn = (page: ReactNode) => ({
  element: <RequireSignedIn>{page}</RequireSignedIn>,
  handle: SIGNED_IN_ROUTE,
});

export const router = createBrowserRouter([
  {
    // ClerkProvider sits inside the router so Clerk can navigate with react-router.
    element: <ClerkProviderWithRouter />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <AppLayout />,
        // Also declared here so page errors render inside ClerkProvider rather than tearing it down.
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, element: <LandingPage /> },
          // clerk-js's own pages: it navigates from them by itself, so the navigation rule leaves them alone.
          { path: 'sign-in', element: <SignInPage />, handle: IDENTITY_ROUTE },
          { path: 'sign-up', element: <SignUpPage />, handle: IDENTITY_ROUTE },
          // <Waitlist/>: where waitlist mode sends people who have no account (docs/sign-up-modes.md).
          { path: 'waitlist', element: <WaitlistPage />, handle: IDENTITY_ROUTE },
          // A social sign-in's way back from the provider (spec §4's callback state machine, run by clerk-js).
          { path: 'sso-callback', element: <SsoCallbackPage />, handle: IDENTITY_ROUTE },
          { path: 'dashboard', ...signedIn(<DashboardPage />) },
          { path: 'create-organization', ...signedIn(<CreateOrganizationPage />) },
          { path: 'organizations', ...signedIn(<OrganizationListPage />) },
          // The profile's tabs are sub-paths (path routing), e.g. /organization/organization-members.
          { path: 'organization/*', ...signedIn(<OrganizationProfilePage />) },
          { path: 'members', ...signedIn(<MembersPage />) },
          { path: 'settings', ...signedIn(<SettingsPage />) },
          { path: 'clients', ...signedIn(<ClientOrganizationsPage />) },
          { path: 'diagnostics', ...signedIn(<DiagnosticsPage />) },
          // The active organisation's API keys (<APIKeys/>), for who holds org:sys_api_keys:read.
          { path: 'api-keys', ...signedIn(<ApiKeysPage />) },
          // An application asking to sign the user in (docs/oauth-provider.md); needs no organisation.
          { path: 'oauth/consent', ...signedIn(<OAuthConsentPage />) },
          // The applications the user allowed, each withdrawable; needs no organisation either.
          { path: 'authorized-applications', ...signedIn(<AuthorizedApplicationsPage />) },
          // The operator console (docs/console.md): its own chunk and its own routes; operators only.
          { path: 'console/*', ...signedIn(<ConsolePage />) },
          // One route per module, so an unknown /modules/<slug> falls through to the not-found page.
          ...MODULES.map((module) => ({
            path: modulePath(module).slice(1),
            ...signedIn(<ModulePage module={module} />),
          })),
          // The organisation plans (<PricingTable/>): public, so visitors see them before signing up.
          { path: 'pricing', element: <PricingPage /> },
          // Help is static and harmless: readable before signing in too.
          { path: 'help', element: <HelpIndexPage /> },
          { path: 'help/:name', element: <HelpPage /> },
          // Pending sessions are not signed in yet, so this page is not behind the signed-in guard.
          {
            path: 'tasks/choose-organization',
            element: <ChooseOrganizationTaskPage />,
            handle: IDENTITY_ROUTE,
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);

// The page of the address the app opens on, requested now (see preloadPageOf).
for (const match of router.state.matches) preloadPageOf(match.route.element);
