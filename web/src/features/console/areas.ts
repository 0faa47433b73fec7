/**
 * The console's areas, in the order of its navigation: each is a folder of this feature (its pages,
 * its queries) and a path under /console. A new area (instance settings, webhook deliveries…) adds its
 * folder, its entry here and its routes in ConsolePage.tsx, and its API routes in
 * server/src/console/routes/ (docs/console.md).
 */
export const CONSOLE_AREAS = [
  { path: 'users', labelKey: 'console.nav.users' },
  { path: 'organizations', labelKey: 'console.nav.organizations' },
  { path: 'sign-up', labelKey: 'console.nav.signUp' },
  { path: 'applications', labelKey: 'console.applications.title' },
  { path: 'billing', labelKey: 'console.billing.title' },
  { path: 'settings', labelKey: 'console.nav.settings' },
  { path: 'webhooks', labelKey: 'console.nav.webhooks' },
  { path: 'audit-log', labelKey: 'console.nav.auditLog' },
] as const;
