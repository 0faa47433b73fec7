import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import {
  createOrganization,
  enterCode,
  signOutFromUserButton,
  uniqueEmail,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';
import { waitForCode } from '../support/outbox.ts';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Web3 wallets through the real Clerk UI. A stand-in wallet is injected before the page's scripts: an
 * EIP-1193 provider announced by EIP-6963 as MetaMask (and set as `window.ethereum`), also installed as
 * `window.coinbaseWalletExtension`, which the Coinbase Wallet SDK bundled in clerk-js picks before any
 * popup. It answers `eth_requestAccounts` and `personal_sign` through a binding to this process, which
 * signs with a viem account: what MetaMask does when the person approves. A new person signs up with
 * the MetaMask button (giving the email address the instance requires), signs out, signs in with the
 * button, removes and reconnects the wallet in <UserProfile/>; then Coinbase Wallet, whose first
 * signature is rejected (4001) once, as clerk-js retries it.
 */

/** The instance settings file the server starts with: MetaMask and Coinbase Wallet offered. */
function web3SettingsFile(): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-web3-'));
  const file = join(dir, 'settings.json');
  writeFileSync(
    file,
    JSON.stringify({ web3: { enabled: true, providers: ['metamask', 'coinbase_wallet'] } }),
  );
  return { env: { IDENTITY_SETTINGS_FILE: file }, dir };
}

interface StandInWallet {
  account: PrivateKeyAccount;
  /** personal_sign requests answered, rejected ones included. */
  signatures: number;
  /** How many of the next signature requests to reject with 4001 (the person pressed "Reject"). */
  rejectNext: number;
}

/** Installs the stand-in wallet in every page of `context`; `wallet.account` may be swapped between steps. */
async function injectWallet(context: BrowserContext, wallet: StandInWallet) {
  await context.exposeFunction('__web3Accounts', () => [wallet.account.address]);
  await context.exposeFunction('__web3Sign', async (message: Hex, address: string) => {
    wallet.signatures += 1;
    if (address.toLowerCase() !== wallet.account.address.toLowerCase()) throw new Error('unknown account');
    if (wallet.rejectNext > 0) {
      wallet.rejectNext -= 1;
      return { rejected: true };
    }
    return { signature: await wallet.account.signMessage({ message: { raw: message } }) };
  });
  // A string, not a function: the test runner's TypeScript transform would add helpers the page lacks.
  await context.addInitScript(`{
    const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });
    const provider = {
      isMetaMask: true,
      async request({ method, params }) {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') return window.__web3Accounts();
        if (method === 'eth_chainId') return '0x1';
        if (method === 'personal_sign') {
          const answer = await window.__web3Sign(params[0], params[1]);
          if (answer.rejected) throw rejection();
          return answer.signature;
        }
        throw Object.assign(new Error('Unsupported method ' + method), { code: 4200 });
      },
      on() {},
      removeListener() {},
    };
    window.ethereum = provider;
    // Coinbase Wallet SDK 4.3.0: the browser extension's provider, used as is once given the app's info.
    window.coinbaseWalletExtension = { ...provider, isMetaMask: false, isCoinbaseWallet: true, setAppInfo() {} };
    const detail = Object.freeze({
      info: { uuid: 'e2e-metamask', name: 'MetaMask', icon: 'data:image/svg+xml,<svg/>', rdns: 'io.metamask' },
      provider,
    });
    const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
  }`);
}

const clerkWallets = (page: Page) =>
  page.evaluate(() =>
    (
      window as unknown as {
        Clerk: {
          user: { web3Wallets: { web3Wallet: string; verification: { strategy: string; status: string } }[] };
        };
      }
    ).Clerk.user.web3Wallets.map((w) => ({
      address: w.web3Wallet,
      strategy: w.verification.strategy,
      status: w.verification.status,
    })),
  );

async function openAccount(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.getByRole('menuitem', { name: 'Manage account' }).click();
  await page.getByText('Web3 wallets').first().waitFor({ timeout: UI_WAIT_MS });
}

describe('web3 wallets through the Clerk UI, with a stand-in MetaMask', () => {
  const settings = web3SettingsFile();
  const suite = useSuite({ env: settings.env });
  after(() => rmSync(settings.dir, { recursive: true, force: true }));
  const wallet: StandInWallet = {
    account: privateKeyToAccount(generatePrivateKey()),
    signatures: 0,
    rejectNext: 0,
  };
  const email = uniqueEmail('web3');
  let page: Page;

  test('a new person signs up with the MetaMask button, giving the required email address', async () => {
    let context: BrowserContext;
    ({ context, page } = await suite.newPage());
    await injectWallet(context, wallet);
    const origin = suite.server.origin;

    await page.goto(`${origin}/sign-in`);
    const signUpCreated = nextFapiResponse(page, 'POST', /\/v1\/client\/sign_ups$/);
    await page.getByRole('button', { name: /MetaMask/ }).click();
    // The wallet signs no one in yet: clerk-js falls back to a sign-up with it.
    assert.equal((await signUpCreated).status(), 200);
    // Its signature verified, the sign-up still needs the email address the instance requires.
    const emailField = page.locator('input[name=emailAddress]');
    await emailField.waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await page.locator('input[name=password]').count(), 0, 'a wallet sign-up needs no password');
    const since = new Date();
    await emailField.fill(email);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await waitForHash(page, '/verify-email-address');
    await enterCode(page, await waitForCode(origin, email, since));
    await page.getByTestId('create-organization-page').waitFor({ timeout: UI_WAIT_MS });
    await createOrganization(page, 'Wallet Works');
    assert.deepEqual(await clerkWallets(page), [
      { address: wallet.account.address, strategy: 'web3_metamask_signature', status: 'verified' },
    ]);
    assert.equal(wallet.signatures, 1);
  });

  test('signs out, and signs in again with the MetaMask button alone', async () => {
    await signOutFromUserButton(page);
    await waitForPath(page, '/');
    await page.goto(`${suite.server.origin}/sign-in`);
    const attempted = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
    await page.getByRole('button', { name: /MetaMask/ }).click();
    assert.equal((await attempted).status(), 200);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('user-email').filter({ hasText: email }).waitFor({ timeout: UI_WAIT_MS });
    assert.equal(wallet.signatures, 2);
  });

  test('<UserProfile/>: removes the wallet, then connects it again', async () => {
    await openAccount(page);
    const shortened = `${wallet.account.address.slice(0, 6)}...${wallet.account.address.slice(-4)}`;
    const row = page.locator('.cl-profileSectionItem__web3Wallets').filter({ hasText: shortened });
    await row.waitFor({ timeout: UI_WAIT_MS });
    await row.locator('.cl-menuButton, button[aria-label]').last().click();
    await page.getByRole('menuitem', { name: 'Remove wallet' }).click();
    const removed = nextFapiResponse(page, 'DELETE', /\/v1\/me\/web3_wallets\/[^/]+$/);
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    assert.equal((await removed).status(), 200);
    await row.waitFor({ state: 'detached', timeout: UI_WAIT_MS });

    await page.getByRole('button', { name: 'Connect wallet' }).click();
    const verified = nextFapiResponse(page, 'POST', /\/v1\/me\/web3_wallets\/[^/]+\/attempt_verification$/);
    await page.getByRole('menuitem', { name: /Metamask/i }).click();
    assert.equal((await verified).status(), 200);
    await row.waitFor({ timeout: UI_WAIT_MS });
    assert.deepEqual(await clerkWallets(page), [
      { address: wallet.account.address, strategy: 'web3_metamask_signature', status: 'verified' },
    ]);
  });

  test('Coinbase Wallet: a first rejected signature (4001) is retried once, and the sign-up goes on', async () => {
    const other: StandInWallet = {
      account: privateKeyToAccount(generatePrivateKey()),
      signatures: 0,
      rejectNext: 1,
    };
    const { context, page: coinbasePage } = await suite.newPage();
    await injectWallet(context, other);
    await coinbasePage.goto(`${suite.server.origin}/sign-up`);
    const verified = nextFapiResponse(
      coinbasePage,
      'POST',
      /\/v1\/client\/sign_ups\/[^/]+\/attempt_verification$/,
    );
    await coinbasePage.getByRole('button', { name: /Coinbase/ }).click();
    const body = (await (await verified).json()) as {
      response: { verifications: { web3_wallet: { status: string } } };
    };
    assert.equal(body.response.verifications.web3_wallet.status, 'verified');
    assert.equal(other.signatures, 2, 'rejected once, then signed');
    await coinbasePage.locator('input[name=emailAddress]').waitFor({ timeout: UI_WAIT_MS });
  });
});
