import type { ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import { RequireSignedIn } from '../features/auth/RequireSignedIn.tsx';
import { modulePath, MODULES } from '../features/modules/modules.ts';
import { AppLayout } from './AppLayout.tsx';
import { ClerkProviderWithRouter } from './ClerkProviderWithRouter.tsx';
import {
  ChooseOrganizationTaskPage,
  ClientOrganizationsPage,
  CreateOrganizationPage,
  DashboardPage,
  DiagnosticsPage,
  HelpIndexPage,
  HelpPage,
  LandingPage,
  MembersPage,
  ModulePage,
  NotFoundPage,
  OrganizationListPage,
  OrganizationProfilePage,
  SettingsPage,
  SignInPage,
  SignUpPage,
} from './pages.ts';
import { RouteErrorPage } from './RouteErrorPage.tsx';

const signedIn = (page: ReactNode) => <RequireSignedIn>{page}</RequireSignedIn>;

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
          { path: 'sign-in', element: <SignInPage /> },
          { path: 'sign-up', element: <SignUpPage /> },
          { path: 'dashboard', element: signedIn(<DashboardPage />) },
          { path: 'create-organization', element: signedIn(<CreateOrganizationPage />) },
          { path: 'organizations', element: signedIn(<OrganizationListPage />) },
          // The profile's tabs are sub-paths (path routing), e.g. /organization/organization-members.
          { path: 'organization/*', element: signedIn(<OrganizationProfilePage />) },
          { path: 'members', element: signedIn(<MembersPage />) },
          { path: 'settings', element: signedIn(<SettingsPage />) },
          { path: 'clients', element: signedIn(<ClientOrganizationsPage />) },
          { path: 'diagnostics', element: signedIn(<DiagnosticsPage />) },
          // One route per module, so an unknown /modules/<slug> falls through to the not-found page.
          ...MODULES.map((module) => ({
            path: modulePath(module).slice(1),
            element: signedIn(<ModulePage module={module} />),
          })),
          // Help is static and harmless: readable before signing in too.
          { path: 'help', element: <HelpIndexPage /> },
          { path: 'help/:name', element: <HelpPage /> },
          // Pending sessions are not signed in yet, so this page is not behind the signed-in guard.
          { path: 'tasks/choose-organization', element: <ChooseOrganizationTaskPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
