import { createBrowserRouter } from 'react-router';
import { RequireSignedIn } from '../features/auth/RequireSignedIn.tsx';
import { SignInPage } from '../features/auth/SignInPage.tsx';
import { SignUpPage } from '../features/auth/SignUpPage.tsx';
import { DashboardPage } from '../features/dashboard/DashboardPage.tsx';
import { LandingPage } from '../features/landing/LandingPage.tsx';
import { AppLayout } from './AppLayout.tsx';
import { ClerkProviderWithRouter } from './ClerkProviderWithRouter.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';
import { RouteErrorPage } from './RouteErrorPage.tsx';

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
          {
            path: 'dashboard',
            element: (
              <RequireSignedIn>
                <DashboardPage />
              </RequireSignedIn>
            ),
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
