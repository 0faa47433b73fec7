import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/** The dialling code Clerk's phone input shows before anything is typed in it. */
async function startingDialCode(page: Page): Promise<string> {
  const input = page.locator('input[name=phoneNumber]');
  await input.waitFor({ timeout: UI_WAIT_MS });
  // clerk-js shows "+<code>" in the box that holds the input.
  const box = await input.locator('xpath=..').innerText();
  return /\+\d+/.exec(box)?.[0] ?? '';
}

describe("the phone field's starting country follows the interface language", () => {
  const suite = useSuite();

  test('French: +33', async () => {
    const { page } = await suite.newPage({ language: 'FR' });
    await page.goto(`${suite.server.origin}/sign-up`);
    assert.equal(await startingDialCode(page), '+33');
  });

  test("English: clerk-js's default, +1", async () => {
    const { page } = await suite.newPage({ language: 'EN' });
    await page.goto(`${suite.server.origin}/sign-up`);
    assert.equal(await startingDialCode(page), '+1');
  });
});
