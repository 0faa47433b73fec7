import { createClerkClient, type ClerkClient } from '@clerk/backend';
import { FapiClient, testModeEmail } from './fapi-client.ts';
import { PASSWORD } from './flows.ts';
import type { TestServer } from './server.ts';
import { testModeSignUp } from './wire-flows.ts';

/**
 * The Backend API of the embedded provider, through Clerk's own SDK: how a test sets up what it needs
 * but is not about (users, organisations, memberships), quickly and without the UI.
 */
export function backendClient(server: TestServer): ClerkClient {
  return createClerkClient({
    apiUrl: `${server.origin}/__clerk_backend`,
    secretKey: server.app.identity!.secretKey,
  });
}

export interface TestUser {
  id: string;
  email: string;
}

/**
 * A user with a verified address and the test password, who can sign in at once: signed up over the
 * Frontend API as clerk-js would, with a test-mode address (fixed code, nothing mailed), and no browser.
 */
export async function createUser(server: TestServer, label: string): Promise<TestUser> {
  const email = testModeEmail(label);
  const session = await testModeSignUp(new FapiClient(server.origin), email, PASSWORD);
  return { id: session.userId, email };
}

/** An organisation with `admin` as its admin (the creator's role), as <CreateOrganization/> makes it. */
export async function createOrganizationFor(clerk: ClerkClient, admin: TestUser, name: string) {
  return clerk.organizations.createOrganization({ name, createdBy: admin.id });
}

/** Adds the user to the organisation with `role`, as an operator would through the Backend API. */
export async function addMember(clerk: ClerkClient, organizationId: string, userId: string, role: string) {
  await clerk.organizations.createOrganizationMembership({ organizationId, userId, role });
}

const MODULE_FLAGS = {
  vCiso: 'vCisoModuleEnabled',
  compliance: 'complianceModuleEnabled',
  qompanion: 'qompanionModuleEnabled',
  hexadiag: 'hexadiagModuleEnabled',
  passport: 'passportModuleEnabled',
} as const;

/** Writes an organisation's settings (spec §3 metadata) as an operator would: these modules on, the rest off. */
export async function setOrganizationSettings(
  clerk: ClerkClient,
  organizationId: string,
  settings: { modules: (keyof typeof MODULE_FLAGS)[]; uiLanguage: 'EN' | 'FR' },
) {
  const publicMetadata: Record<string, unknown> = { uiLanguage: settings.uiLanguage };
  for (const [key, flag] of Object.entries(MODULE_FLAGS))
    publicMetadata[flag] = settings.modules.includes(key as keyof typeof MODULE_FLAGS);
  await clerk.organizations.updateOrganizationMetadata(organizationId, { publicMetadata });
}
