import { ClerkAPIResponseError } from '@clerk/shared/error';
import type { FastifyRequest } from 'fastify';
import type { AuthContext, AuthResult } from '../../src/auth/authenticate.ts';
import type { ApiDeps, BackendApi, BackendMembership, BackendOrganization } from '../../src/api/deps.ts';

/** An error as @clerk/backend throws it for a Backend API answer with this status. */
const clerkError = (status: number, code: string, message: string) =>
  new ClerkAPIResponseError(message, { status, data: [{ code, message, long_message: message }] });

/**
 * The product API in-process, against an in-memory Backend API with Clerk's metadata-merge semantics
 * and bearer "tokens" that name an AuthContext. Token verification itself (@clerk/backend against the
 * provider's JWKS) is covered end to end by the e2e suite.
 */
export class InMemoryBackend implements BackendApi {
  readonly organizationsById = new Map<string, BackendOrganization>();
  readonly metadataWrites: { organizationId: string; publicMetadata: Record<string, unknown> }[] = [];
  /** Role per organisation id, then per user id. */
  readonly memberships = new Map<string, Map<string, string>>();
  failNextRead = false;
  /** Makes the next matching write fail with a 503, as an unavailable Backend API would (then clears it). */
  failNextWrite: ((write: { operation: string; organizationId: string }) => boolean) | null = null;
  /** Lets other requests run inside every call, as a remote Backend API would (for concurrency tests). */
  interleave = false;
  private createdCount = 0;

  users: BackendApi['users'] = {
    getUser: async (userId) => ({
      id: userId,
      firstName: 'Ada',
      lastName: null,
      primaryEmailAddress: { emailAddress: 'ada@example.com' },
    }),
  };

  organizations: BackendApi['organizations'] = {
    getOrganization: async ({ organizationId }) => {
      await this.yieldWhenAsked();
      if (this.failNextRead) {
        this.failNextRead = false;
        throw clerkError(503, 'service_unavailable', 'Backend API unavailable');
      }
      return structuredClone(this.stored(organizationId));
    },
    updateOrganizationMetadata: async (organizationId, { publicMetadata }) => {
      await this.yieldWhenAsked();
      const organization = this.stored(organizationId);
      this.failIfAsked('updateOrganizationMetadata', organizationId);
      this.metadataWrites.push({ organizationId, publicMetadata: structuredClone(publicMetadata) });
      const merged: Record<string, unknown> = { ...(organization.publicMetadata ?? {}) };
      for (const [key, value] of Object.entries(publicMetadata)) {
        if (value === null) delete merged[key];
        else merged[key] = structuredClone(value);
      }
      organization.publicMetadata = merged;
      return structuredClone(organization);
    },
    createOrganization: async ({ name, slug, publicMetadata }) => {
      await this.yieldWhenAsked();
      this.createdCount += 1;
      const id = `org_created${this.createdCount}`;
      this.failIfAsked('createOrganization', id);
      const taken = [...this.organizationsById.values()].some((o) => o.slug === slug);
      if (slug && taken) {
        throw clerkError(422, 'form_identifier_exists', 'That slug is taken. Please try another.');
      }
      const organization = {
        id,
        name,
        slug: slug ?? `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${this.createdCount}`,
        publicMetadata: structuredClone(publicMetadata ?? {}),
      };
      this.add(organization);
      return structuredClone(organization);
    },
    deleteOrganization: async (organizationId) => {
      await this.yieldWhenAsked();
      this.stored(organizationId);
      this.failIfAsked('deleteOrganization', organizationId);
      this.organizationsById.delete(organizationId);
      this.memberships.delete(organizationId);
      return { id: organizationId, deleted: true };
    },
    getOrganizationList: async ({ organizationId, limit = 10 }) => {
      await this.yieldWhenAsked();
      const all = [...this.organizationsById.values()].filter(
        (o) => !organizationId || organizationId.includes(o.id),
      );
      return { data: structuredClone(all.slice(0, limit)), totalCount: all.length };
    },
    getOrganizationMembershipList: async ({ organizationId, userId, limit = 10 }) => {
      await this.yieldWhenAsked();
      this.stored(organizationId);
      const all = [...(this.memberships.get(organizationId) ?? new Map<string, string>())]
        .filter(([user]) => !userId || userId.includes(user))
        .map(([user, role]) => this.membershipOf(organizationId, user, role));
      return { data: all.slice(0, limit), totalCount: all.length };
    },
    createOrganizationMembership: async ({ organizationId, userId, role }) => {
      await this.yieldWhenAsked();
      this.stored(organizationId);
      this.failIfAsked('createOrganizationMembership', organizationId);
      if (this.memberships.get(organizationId)?.has(userId)) {
        throw clerkError(400, 'already_a_member_in_organization', 'Already a member');
      }
      this.addMember(organizationId, userId, role);
      return this.membershipOf(organizationId, userId, role);
    },
  };

  addMember(organizationId: string, userId: string, role: string) {
    const members = this.memberships.get(organizationId) ?? new Map<string, string>();
    members.set(userId, role);
    this.memberships.set(organizationId, members);
  }

  private membershipOf(organizationId: string, userId: string, role: string): BackendMembership {
    return { role, organization: { id: organizationId }, publicUserData: { userId } };
  }

  private async yieldWhenAsked() {
    if (this.interleave) await new Promise((resolve) => setTimeout(resolve, 1));
  }

  private failIfAsked(operation: string, organizationId: string) {
    if (!this.failNextWrite?.({ operation, organizationId })) return;
    this.failNextWrite = null;
    throw clerkError(503, 'service_unavailable', 'Backend API unavailable');
  }

  add(organization: BackendOrganization) {
    this.organizationsById.set(organization.id, organization);
  }

  stored(organizationId: string): BackendOrganization {
    const organization = this.organizationsById.get(organizationId);
    if (!organization) throw clerkError(404, 'resource_not_found', 'Not Found');
    return organization;
  }
}

/** Product API dependencies over the fake Backend API, with bearer "tokens" naming an AuthContext. */
export function fakeApiDeps(backend: () => InMemoryBackend, tokens: Map<string, AuthContext>): ApiDeps {
  return {
    get clerk() {
      return backend();
    },
    async authenticate(req: FastifyRequest): Promise<AuthResult> {
      const auth = tokens.get(req.headers.authorization?.replace(/^Bearer /, '') ?? '');
      return auth ? { ok: true, auth } : { ok: false, reason: 'Missing bearer session token.' };
    },
    // The vCISO hierarchy lives in the product database: its routes are tested on the real server
    // (vciso-api.test.ts), never on this fake.
    get hierarchy(): ApiDeps['hierarchy'] {
      throw new Error('The in-memory Backend API has no product database.');
    },
  };
}
