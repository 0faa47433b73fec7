import { Navigate, Route, Routes } from 'react-router';
import { ApiKeysPage } from './applications/ApiKeysPage.tsx';
import { ApplicationsArea } from './applications/ApplicationsArea.tsx';
import { MachinesPage } from './applications/MachinesPage.tsx';
import { OAuthApplicationsPage } from './applications/OAuthApplicationsPage.tsx';
import { AuditLogPage } from './audit-log/AuditLogPage.tsx';
import { BillingArea } from './billing/BillingArea.tsx';
import { PlansPage } from './billing/PlansPage.tsx';
import { StatementsPage } from './billing/StatementsPage.tsx';
import { SubscriptionsPage } from './billing/SubscriptionsPage.tsx';
import { ConsoleGate } from './layout/ConsoleGate.tsx';
import { ConsoleLayout } from './layout/ConsoleLayout.tsx';
import { OrganizationPage } from './organizations/OrganizationPage.tsx';
import { OrganizationsPage } from './organizations/OrganizationsPage.tsx';
import { SettingsPage } from './settings/SettingsPage.tsx';
import { IdentifierListsPage } from './sign-up/IdentifierListsPage.tsx';
import { InvitationsPage } from './sign-up/InvitationsPage.tsx';
import { SignUpArea } from './sign-up/SignUpArea.tsx';
import { WaitlistPage } from './sign-up/WaitlistPage.tsx';
import { UserPage } from './users/UserPage.tsx';
import { UsersPage } from './users/UsersPage.tsx';
import { WebhookDeliveryPage } from './webhooks/WebhookDeliveryPage.tsx';
import { WebhooksPage } from './webhooks/WebhooksPage.tsx';
import './console.css';

/**
 * /console/* — the operator console (docs/console.md): one chunk, loaded only when opened. Its pages
 * call the console API (/console/api), a client of the Backend API with the secret key.
 */
export function ConsolePage() {
  return (
    <ConsoleGate>
      <ConsoleLayout>
        <Routes>
          <Route index element={<Navigate to="users" replace />} />
          <Route path="users" element={<UsersPage />} />
          <Route path="users/:userId" element={<UserPage />} />
          <Route path="organizations" element={<OrganizationsPage />} />
          <Route path="organizations/:organizationId" element={<OrganizationPage />} />
          <Route path="sign-up" element={<SignUpArea />}>
            <Route index element={<Navigate to="waitlist" replace />} />
            <Route path="waitlist" element={<WaitlistPage />} />
            <Route path="invitations" element={<InvitationsPage />} />
            <Route path="lists" element={<IdentifierListsPage />} />
          </Route>
          <Route path="applications" element={<ApplicationsArea />}>
            <Route index element={<Navigate to="api-keys" replace />} />
            <Route path="api-keys" element={<ApiKeysPage />} />
            <Route path="oauth" element={<OAuthApplicationsPage />} />
            <Route path="machines" element={<MachinesPage />} />
          </Route>
          <Route path="billing" element={<BillingArea />}>
            <Route index element={<Navigate to="plans" replace />} />
            <Route path="plans" element={<PlansPage />} />
            <Route path="subscriptions" element={<SubscriptionsPage />} />
            <Route path="statements" element={<StatementsPage />} />
          </Route>
          <Route path="settings" element={<SettingsPage />} />
          <Route path="webhooks" element={<WebhooksPage />} />
          <Route path="webhooks/deliveries/:deliveryId" element={<WebhookDeliveryPage />} />
          <Route path="audit-log" element={<AuditLogPage />} />
          <Route path="*" element={<Navigate to="users" replace />} />
        </Routes>
      </ConsoleLayout>
    </ConsoleGate>
  );
}
