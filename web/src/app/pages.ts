import { lazyPage } from './lazy-page.tsx';

/** Every page is its own chunk, loaded when first shown (see lazyPage); the router imports them from here. */
export const OAuthConsentPage = lazyPage(() =>
  import('../features/oauth-consent/OAuthConsentPage.tsx').then((m) => m.OAuthConsentPage),
);
export const AuthorizedApplicationsPage = lazyPage(() =>
  import('../features/authorized-applications/AuthorizedApplicationsPage.tsx').then(
    (m) => m.AuthorizedApplicationsPage,
  ),
);
export const SignInPage = lazyPage(() => import('../features/auth/SignInPage.tsx').then((m) => m.SignInPage));
export const SignUpPage = lazyPage(() => import('../features/auth/SignUpPage.tsx').then((m) => m.SignUpPage));
export const WaitlistPage = lazyPage(() =>
  import('../features/auth/WaitlistPage.tsx').then((m) => m.WaitlistPage),
);
export const SsoCallbackPage = lazyPage(() =>
  import('../features/auth/SsoCallbackPage.tsx').then((m) => m.SsoCallbackPage),
);
export const DashboardPage = lazyPage(() =>
  import('../features/dashboard/DashboardPage.tsx').then((m) => m.DashboardPage),
);
export const HelpIndexPage = lazyPage(() =>
  import('../features/help/HelpIndexPage.tsx').then((m) => m.HelpIndexPage),
);
export const HelpPage = lazyPage(() => import('../features/help/HelpPage.tsx').then((m) => m.HelpPage));
export const LandingPage = lazyPage(() =>
  import('../features/landing/LandingPage.tsx').then((m) => m.LandingPage),
);
export const ModulePage = lazyPage(() =>
  import('../features/modules/ModulePage.tsx').then((m) => m.ModulePage),
);
export const ChooseOrganizationTaskPage = lazyPage(() =>
  import('../features/organizations/ChooseOrganizationTaskPage.tsx').then(
    (m) => m.ChooseOrganizationTaskPage,
  ),
);
export const CreateOrganizationPage = lazyPage(() =>
  import('../features/organizations/CreateOrganizationPage.tsx').then((m) => m.CreateOrganizationPage),
);
export const MembersPage = lazyPage(() =>
  import('../features/organizations/members/MembersPage.tsx').then((m) => m.MembersPage),
);
export const OrganizationListPage = lazyPage(() =>
  import('../features/organizations/OrganizationListPage.tsx').then((m) => m.OrganizationListPage),
);
export const OrganizationProfilePage = lazyPage(() =>
  import('../features/organizations/OrganizationProfilePage.tsx').then((m) => m.OrganizationProfilePage),
);
export const SettingsPage = lazyPage(() =>
  import('../features/settings/SettingsPage.tsx').then((m) => m.SettingsPage),
);
export const ClientOrganizationsPage = lazyPage(() =>
  import('../features/vciso/ClientOrganizationsPage.tsx').then((m) => m.ClientOrganizationsPage),
);
export const DiagnosticsPage = lazyPage(() =>
  import('../features/diagnostics/DiagnosticsPage.tsx').then((m) => m.DiagnosticsPage),
);
export const ApiKeysPage = lazyPage(() =>
  import('../features/api-keys/ApiKeysPage.tsx').then((m) => m.ApiKeysPage),
);
export const PricingPage = lazyPage(() =>
  import('../features/billing/PricingPage.tsx').then((m) => m.PricingPage),
);
export const NotFoundPage = lazyPage(() => import('./NotFoundPage.tsx').then((m) => m.NotFoundPage));
export const ConsolePage = lazyPage(() =>
  import('../features/console/ConsolePage.tsx').then((m) => m.ConsolePage),
);
