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
