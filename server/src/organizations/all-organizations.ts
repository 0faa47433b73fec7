import type { BackendApi, BackendOrganization } from '../api/backend-api.ts';

/** Every organisation the Backend API knows, oldest first, read 100 at a time. */
export async function* allOrganizations(
  organizations: BackendApi['organizations'],
): AsyncGenerator<BackendOrganization> {
  for (let offset = 0; ; offset += 100) {
    const { data } = await organizations.getOrganizationList({ limit: 100, offset, orderBy: '+created_at' });
    yield* data;
    if (data.length < 100) return;
  }
}
