import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { signUp, type SignedIn } from './flows.ts';
import { uploadImage, type ImageBody } from './images.ts';
import { uniqueEmail, type Browser, type FapiResponse, type Harness, type Json } from './harness.ts';

/** A signed-up user with their own browser (cookie jar) and signed-in session. */
export interface Member extends SignedIn {
  email: string;
  browser: Browser;
}

export async function newMember(
  h: Harness,
  prefix: string,
  names: { firstName?: string; lastName?: string } = {},
): Promise<Member> {
  const browser = h.browser();
  const email = uniqueEmail(prefix);
  const signedIn = await signUp(h, browser, email, names);
  return { ...signedIn, email, browser };
}

/** `POST /organizations` as the user, asserting success; the wrapped OrganizationJSON. */
export async function createOrganization(member: Member, name: string, slug?: string): Promise<Json> {
  const res = await member.browser.post('/organizations', slug === undefined ? { name } : { name, slug });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.response;
}

/** The organisation admin adds `member` with `role` through the Frontend API, asserting success. */
export async function addMember(
  admin: Member,
  organizationId: string,
  member: Member,
  role: string,
): Promise<Json> {
  const res = await admin.browser.post(`/organizations/${organizationId}/memberships`, {
    user_id: member.userId,
    role,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.response;
}

/** Makes the organisation active on the member's session, as `setActive({organization})` does. */
export async function activate(member: Member, organizationId: string | null): Promise<FapiResponse> {
  const res = await member.browser.post(`/client/sessions/${member.sessionId}/touch`, {
    active_organization_id: organizationId ?? '',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res;
}

/** Claims of a fresh token for the member's session (the session's own organisation unless `form` names one). */
export async function tokenClaims(member: Member, form: Record<string, string> = {}) {
  const res = await member.browser.post(`/client/sessions/${member.sessionId}/tokens`, form);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return decodeJwt(res.body.jwt);
}

/** The expected error: status and first error code (and `param_name` when given). */
export function assertError(
  res: FapiResponse | { status: number; body: Json },
  status: number,
  code: string,
  param?: string,
) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code, JSON.stringify(res.body));
  if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
}

/** The user's memberships as the piggy-backed client carries them (what the Clerk components read). */
export function clientMemberships(body: Json, userId: string): Json[] {
  const session = body.client.sessions.find((s: Json) => s.user.id === userId);
  assert.ok(session, 'the session is in the piggy-backed client');
  return session.user.organization_memberships;
}

export { GIF, PNG } from './images.ts';

/**
 * `PUT /organizations/:id/logo` as clerk-js sends it (POST + `_method=PUT`): a multipart body for a
 * File, or a raw octet-stream body for a string.
 */
export async function putLogo(
  h: Harness,
  member: Member,
  organizationId: string,
  body: ImageBody,
): Promise<FapiResponse> {
  return uploadImage(h, member.browser, `/organizations/${organizationId}/logo`, body, 'PUT');
}
