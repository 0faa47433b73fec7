import type { FastifyRequest } from 'fastify';
import type { AuthContext, AuthResult } from '../../src/auth/authenticate.ts';
import type { ApiDeps, BackendApi, BackendOrganization } from '../../src/api/deps.ts';

/**
 * The product API in-process, against an in-memory Backend API with Clerk's metadata-merge semantics
 * and bearer "tokens" that name an AuthContext. Token verification itself (@clerk/backend against the
 * provider's JWKS) is covered end to end by the e2e suite.
 */
export class InMemoryBackend implements BackendApi {
  readonly organizationsById = new Map<string, BackendOrganization>();
  readonly metadataWrites: { organizationId: string; publicMetadata: Record<string, unknown> }[] = [];
  failNextRead = false;

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
      if (this.failNextRead) {
        this.failNextRead = false;
        throw Object.assign(new Error('Backend API unavailable'), { status: 503 });
      }
      return structuredClone(this.stored(organizationId));
    },
    updateOrganizationMetadata: async (organizationId, { publicMetadata }) => {
      const organization = this.stored(organizationId);
      this.metadataWrites.push({ organizationId, publicMetadata: structuredClone(publicMetadata) });
      const merged: Record<string, unknown> = { ...(organization.publicMetadata ?? {}) };
      for (const [key, value] of Object.entries(publicMetadata)) {
        if (value === null) delete merged[key];
        else merged[key] = structuredClone(value);
      }
      organization.publicMetadata = merged;
      return structuredClone(organization);
    },
  };

  add(organization: BackendOrganization) {
    this.organizationsById.set(organization.id, organization);
  }

  stored(organizationId: string): BackendOrganization {
    const organization = this.organizationsById.get(organizationId);
    if (!organization) throw Object.assign(new Error('Not Found'), { status: 404 });
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
  };
}
