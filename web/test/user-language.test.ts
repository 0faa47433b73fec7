import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rememberUserLanguage } from '../src/features/language/user-language.ts';

/** A user whose `update` records what it is sent, or refuses. */
function user(unsafeMetadata: Record<string, unknown>, refuse = false) {
  const sent: Record<string, unknown>[] = [];
  return {
    sent,
    unsafeMetadata,
    update: async (params: { unsafeMetadata: Record<string, unknown> }) => {
      sent.push(params.unsafeMetadata);
      if (refuse) throw new Error('forbidden');
    },
  };
}

describe("the interface language kept as the user's", () => {
  test('written beside the rest of the unsafe metadata', async () => {
    const u = user({ theme: 'dark', uiLanguage: 'EN' });
    await rememberUserLanguage(u, 'FR');
    assert.deepEqual(u.sent, [{ theme: 'dark', uiLanguage: 'FR' }]);
  });

  test('nothing sent when it is the language kept already', async () => {
    const u = user({ uiLanguage: 'FR' });
    await rememberUserLanguage(u, 'FR');
    assert.deepEqual(u.sent, []);
  });

  test('a refusal (an impersonating operator) does not throw', async () => {
    const u = user({}, true);
    await rememberUserLanguage(u, 'EN');
    assert.deepEqual(u.sent, [{ uiLanguage: 'EN' }]);
  });
});
