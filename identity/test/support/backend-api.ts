import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createClerkClient, type ClerkClient } from '@clerk/backend';
import { BAPI, type Harness } from './harness.ts';

/** @clerk/backend 2.10.1 on the harness's Backend API; it speaks fetch, so the app listens on a port. */
export async function backendApiClient(h: Harness): Promise<ClerkClient> {
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}${BAPI}`;
  return createClerkClient({
    apiUrl,
    secretKey: h.identity.secretKey,
    publishableKey: h.identity.publishableKey,
  });
}

interface ApiError {
  status?: number;
  errors?: { code: string; meta?: { paramName?: string } }[];
}

/** Asserts that `promise` fails with a Clerk API error of `status` and `code`. */
export async function rejectsWith(promise: Promise<unknown>, status: number, code: string, param?: string) {
  await assert.rejects(promise, (err: ApiError) => {
    assert.equal(err.status, status, JSON.stringify(err));
    assert.equal(err.errors?.[0]?.code, code, JSON.stringify(err.errors));
    if (param !== undefined) assert.equal(err.errors?.[0]?.meta?.paramName, param);
    return true;
  });
}
