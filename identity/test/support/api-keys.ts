import assert from 'node:assert/strict';
import { CLERK_QUERY, FAPI, PUBLIC_URL, type FapiResponse, type Harness, type Json } from './harness.ts';
import type { Member } from './organizations.ts';

/** A fresh session token of the member's session, as clerk-js's `session.getToken()` gives it. */
export async function sessionJwt(member: Member): Promise<string> {
  const res = await member.browser.post(`/client/sessions/${member.sessionId}/tokens`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.jwt;
}

/**
 * An API-key call of the Frontend API as clerk-js 5.90.0 makes it (core/modules/apiKeys): no `/v1`, the
 * proxy's double slash, `Authorization: Bearer <session token>`, JSON. `token`: null sends none.
 */
export async function apiKeysCall(
  h: Harness,
  token: string | null,
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
  query: Record<string, string> = {},
): Promise<FapiResponse> {
  const search = new URLSearchParams({ ...CLERK_QUERY, ...query });
  const res = await h.app.inject({
    method,
    url: `${FAPI}/${path}?${search}`,
    headers: {
      origin: PUBLIC_URL,
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
  let parsed: Json;
  try {
    parsed = res.body ? JSON.parse(res.body) : null;
  } catch {
    parsed = res.body;
  }
  return { status: res.statusCode, headers: res.headers, body: parsed, setCookies: new Map() };
}

/** `<APIKeys/>`'s calls for one member, each with a fresh session token. */
export function apiKeysOf(h: Harness, member: Member) {
  const call = async (
    method: 'GET' | 'POST',
    path: string,
    body?: Record<string, unknown>,
    query?: Record<string, string>,
  ) => apiKeysCall(h, await sessionJwt(member), method, path, body, query);
  return {
    list: (subject: string) => call('GET', '/api_keys', undefined, { subject, limit: '100' }),
    create: (body: Record<string, unknown>) => call('POST', '/api_keys', { type: 'api_key', ...body }),
    secret: (id: string) => call('GET', `/api_keys/${id}/secret`),
    revoke: (id: string, body: Record<string, unknown> = {}) => call('POST', `/api_keys/${id}/revoke`, body),
    call,
  };
}
