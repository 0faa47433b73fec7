import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import {
  API_ERRORS,
  apiErrorBody,
  apiErrorBodySchema,
  describeIssues,
  isApiErrorCode,
} from '../src/index.ts';

test('every code has an HTTP error status and a message', () => {
  for (const [code, { status, message }] of Object.entries(API_ERRORS)) {
    assert.match(code, /^[a-z_]+$/);
    assert.ok(status >= 400 && status < 600, code);
    assert.ok(message.length > 0, code);
  }
});

test('the error body is Clerk-shaped and readable by the schema', () => {
  const body = apiErrorBody('forbidden');
  assert.deepEqual(body, {
    errors: [{ code: 'forbidden', message: 'Your role in the active organisation does not allow this.' }],
  });
  assert.deepEqual(apiErrorBodySchema.parse(body), body);
  assert.equal(apiErrorBodySchema.safeParse({ errors: [{ code: 1, message: 'x' }] }).success, false);
  assert.equal(apiErrorBodySchema.safeParse({ message: 'Not Found', statusCode: 404 }).success, false);
});

test('codes are recognised exactly', () => {
  assert.equal(isApiErrorCode('slug_taken'), true);
  assert.equal(isApiErrorCode('toString'), false);
  assert.equal(isApiErrorCode('FORBIDDEN'), false);
});

test('an issue is described by its path, without the value', () => {
  const error = z.object({ a: z.object({ b: z.boolean() }) }).safeParse({ a: { b: 'secret-value' } }).error!;
  const message = describeIssues(error);
  assert.match(message, /^"a\.b": /);
  assert.equal(message.includes('secret-value'), false);
});
