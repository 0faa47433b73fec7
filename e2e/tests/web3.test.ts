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
  waitForClerkSession,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';
import { FapiClient } from '../support/fapi-client.ts';
import { waitForCode } from '../support/outbox.ts';
import { errorCodeOf, nextFapiResponse, useSuite } from '../support/suite.ts';
import { assertOk } from '../support/wire-flows.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Web3 wallets through the real Clerk UI. A stand-in wallet is injected before the page's scripts: an
 * EIP-1193 provider announced by EIP-6963 as MetaMask (and set as `window.ethereum`), also installed as
 * `window.coinbaseWalletExtension`, which the Coinbase Wallet SDK bundled in clerk-js picks before any
 * popup. It answers `eth_requestAccounts` and `personal_sign` through a binding to this process, which
 * signs with a viem account: what MetaMask does when the person approves. A new person signs up with
 * the MetaMask button (giving the email address the instance requires), signs out, signs in with the
 * button, removes and reconnects the wallet in <UserProfile/>; then Coinbase Wallet, whose first
 * signature is rejected (4001) once, as clerk-js retries it. Then the refusals of issue #15 through the
 * <SignIn/> card, each for a wallet owner made over the wire: a wallet that announces the owner's address
 * but signs with another key, and one that answers a second attempt with its signature of the first
 * attempt's nonce. Last, OKX Wallet found by its own EIP-6963 announcement.
 */

/** The instance settings file the server starts with: MetaMask, Coinbase Wallet and OKX Wallet offered. */
function web3SettingsFile(): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-web3-'));
  const file = join(dir, 'settings.json');
  writeFileSync(
    file,
    JSON.stringify({ web3: { enabled: true, providers: ['metamask', 'coinbase_wallet', 'okx_wallet'] } }),
  );
  return { env: { IDENTITY_SETTINGS_FILE: file }, dir };
}

interface StandInWallet {
  account: PrivateKeyAccount;
  /** personal_sign requests answered, rejected ones included. */
  signatures: number;
  /** How many of the next signature requests to reject with 4001 (the person pressed "Reject"). */
  rejectNext: number;
  /** The messages asked to sign (hex), rejected ones included, in order. */
  messages: Hex[];
  /** The wallet app (EIP-6963 name) each request came through. */
  via: string[];
  /** The key that signs, when not the announced account's: a wallet that signs with another key. */
  signer?: PrivateKeyAccount;
  /** Every signature is of the first message ever asked: a wallet replaying an earlier nonce. */
  replayFirstMessage?: boolean;
}

const newWallet = (overrides: Partial<StandInWallet> = {}): StandInWallet => ({
  account: privateKeyToAccount(generatePrivateKey()),
  signatures: 0,
  rejectNext: 0,
  messages: [],
  via: [],
  ...overrides,
});

/** Installs the stand-in wallet in every page of `context`; `wallet.account` may be swapped between steps. */
async function injectWallet(context: BrowserContext, wallet: StandInWallet) {
  await context.exposeFunction('__web3Accounts', () => [wallet.account.address]);
  await context.exposeFunction('__web3Sign', async (message: Hex, address: string, via: string) => {
    wallet.signatures += 1;
    wallet.messages.push(message);
    wallet.via.push(via);
    if (address.toLowerCase() !== wallet.account.address.toLowerCase()) throw new Error('unknown account');
    if (wallet.rejectNext > 0) {
      wallet.rejectNext -= 1;
      return { rejected: true };
    }
    const signed = wallet.replayFirstMessage ? wallet.messages[0]! : message;
    const key = wallet.signer ?? wallet.account;
    return { signature: await key.signMessage({ message: { raw: signed } }) };
  });
  // A string, not a function: the test runner's TypeScript transform would add helpers the page lacks.
  await context.addInitScript(`{
    const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });
    const walletApp = (via, flags) => ({
      ...flags,
      async request({ method, params }) {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') return window.__web3Accounts();
        if (method === 'eth_chainId') return '0x1';
        if (method === 'personal_sign') {
          const answer = await window.__web3Sign(params[0], params[1], via);
          if (answer.rejected) throw rejection();
          return answer.signature;
        }
        throw Object.assign(new Error('Unsupported method ' + method), { code: 4200 });
      },
      on() {},
      removeListener() {},
    });
    const provider = walletApp('MetaMask', { isMetaMask: true });
    window.ethereum = provider;
    // Coinbase Wallet SDK 4.3.0: the browser extension's provider, used as is once given the app's info.
    window.coinbaseWalletExtension = walletApp('Coinbase Wallet', { isCoinbaseWallet: true, setAppInfo() {} });
    const announced = [
      { info: { uuid: 'e2e-metamask', name: 'MetaMask', icon: 'data:image/svg+xml,<svg/>', rdns: 'io.metamask' }, provider },
      {
        info: { uuid: 'e2e-okx', name: 'OKX Wallet', icon: 'data:image/svg+xml,<svg/>', rdns: 'com.okex.wallet' },
        provider: walletApp('OKX Wallet', { isOkxWallet: true }),
      },
    ].map((detail) => Object.freeze(detail));
    const announce = () => {
      for (const detail of announced) window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
    };
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

/**
 * A person who signed up with `account`'s wallet and an email address, over the wire as clerk-js does it
 * (sign-up by wallet, its nonce signed, then the required address verified by code), in a browser of its
 * own: the browsers of the tests below know nothing of them but the address.
 */
async function walletOwner(origin: string, account: PrivateKeyAccount): Promise<{ email: string }> {
  const browser = new FapiClient(origin);
  const strategy = 'web3_metamask_signature';
  const created = await browser.post('/client/sign_ups', { web3_wallet: account.address });
  assertOk(created, 'create the wallet sign-up');
  const id = created.body.response.id as string;
  const prepared = await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy });
  assertOk(prepared, 'prepare the wallet verification');
  const nonce = prepared.body.response.verifications.web3_wallet.message as string;
  const signature = await account.signMessage({ message: nonce });
  assertOk(
    await browser.post(`/client/sign_ups/${id}/attempt_verification`, { strategy, signature }),
    'sign the nonce',
  );
  const email = uniqueEmail('web3-owner');
  const since = new Date();
  assertOk(await browser.patch(`/client/sign_ups/${id}`, { email_address: email }), 'give the address');
  const emailCode = { strategy: 'email_code' };
  assertOk(await browser.post(`/client/sign_ups/${id}/prepare_verification`, emailCode), 'prepare the code');
  const done = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
    ...emailCode,
    code: await waitForCode(origin, email, since),
  });
  assertOk(done, 'verify the address');
  assert.equal(done.body.response.status, 'complete');
  return { email };
}

/** The page's Clerk client as the server now has it: its sessions and its sign-in's first factor. */
const clerkClientState = (page: Page) =>
  page.evaluate(async () => {
    const clerk = (
      window as unknown as {
        Clerk: {
          session: unknown;
          client: {
            reload(): Promise<unknown>;
            sessions: unknown[];
            signIn: { status: string | null; firstFactorVerification: { status: string | null } };
          };
        };
      }
    ).Clerk;
    await clerk.client.reload();
    return {
      session: clerk.session ?? null,
      sessions: clerk.client.sessions.length,
      signIn: clerk.client.signIn.status,
      firstFactor: clerk.client.signIn.firstFactorVerification.status,
    };
  });

/** The primary email address of the user the page's Clerk is signed in as (the owner has no organisation yet). */
const signedInEmail = (page: Page) =>
  page.evaluate(
    () =>
      (
        window as unknown as {
          Clerk: { user: { primaryEmailAddress: { emailAddress: string } | null } | null };
        }
      ).Clerk.user?.primaryEmailAddress?.emailAddress,
  );

const cardAlert = (page: Page) => page.locator('.cl-alert').first();

/**
 * What the <SignIn/> card shows after a refused signature: the error's long message in its alert (clerk-js's
 * wallet button handler, `web3CallbackErrorHandler` → `handleError(err, [], card.setError)`, puts an error
 * without `param_name` on the card), and its buttons usable again.
 */
async function assertCardShowsRefusal(page: Page) {
  await cardAlert(page)
    .filter({ hasText: 'The signature was not made by this web3 wallet' })
    .waitFor({ timeout: UI_WAIT_MS });
  assert.ok(await page.getByRole('button', { name: /MetaMask/ }).isEnabled(), 'the card is ready again');
}

async function openAccount(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.getByRole('menuitem', { name: 'Manage account' }).click();
  await page.getByText('Web3 wallets').first().waitFor({ timeout: UI_WAIT_MS });
}

describe('web3 wallets through the Clerk UI, with a stand-in MetaMask', () => {
  const settings = web3SettingsFile();
  const suite = useSuite({ env: settings.env });
  after(() => rmSync(settings.dir, { recursive: true, force: true }));
  const wallet = newWallet();
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
    const other = newWallet({ rejectNext: 1 });
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
    assert.deepEqual(other.via, ['Coinbase Wallet', 'Coinbase Wallet']);
    await coinbasePage.locator('input[name=emailAddress]').waitFor({ timeout: UI_WAIT_MS });
  });

  // Issue #15: what the card must refuse. Each test has its own wallet owner and browser.
  test("a wallet announcing its owner's address but signing with another key is refused; the right key signs in", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const { email } = await walletOwner(suite.server.origin, owner);
    const wallet = newWallet({ account: owner, signer: privateKeyToAccount(generatePrivateKey()) });
    const { context, page } = await suite.newPage();
    await injectWallet(context, wallet);
    await page.goto(`${suite.server.origin}/sign-in`);

    const attempted = nextFapiResponse(page, 'POST', /\/v1\/client\/sign_ins\/[^/]+\/attempt_first_factor$/);
    await page.getByRole('button', { name: /MetaMask/ }).click();
    const refused = await attempted;
    assert.equal(refused.status(), 422);
    assert.equal(await errorCodeOf(refused), 'form_param_value_invalid');
    assert.equal(wallet.signatures, 1);
    assert.deepEqual(await clerkClientState(page), {
      session: null,
      sessions: 0,
      signIn: 'needs_first_factor',
      firstFactor: 'failed',
    });
    await assertCardShowsRefusal(page);
    assert.equal(new URL(page.url()).pathname, '/sign-in');

    // The same page, the wallet now signing with the key it announces: the owner is in.
    delete wallet.signer;
    const accepted = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
    await page.getByRole('button', { name: /MetaMask/ }).click();
    assert.equal((await accepted).status(), 200);
    await waitForClerkSession(page);
    assert.equal(await signedInEmail(page), email);
  });

  test("a signature of an earlier attempt's nonce, by the right key, is refused", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    await walletOwner(suite.server.origin, owner);
    // The person rejects the first request (MetaMask: 4001, not retried by clerk-js); the wallet then
    // answers the next one with the owner's signature of the first request's nonce.
    const wallet = newWallet({ account: owner, rejectNext: 1, replayFirstMessage: true });
    const { context, page } = await suite.newPage();
    await injectWallet(context, wallet);
    await page.goto(`${suite.server.origin}/sign-in`);

    const button = page.getByRole('button', { name: /MetaMask/ });
    const firstNonce = nextFapiResponse(page, 'POST', /\/prepare_first_factor$/);
    await button.click();
    assert.equal((await firstNonce).status(), 200);
    await cardAlert(page).getByText('User rejected the request.').waitFor({ timeout: UI_WAIT_MS });
    assert.equal(wallet.signatures, 1);

    const attempted = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
    await button.click();
    const refused = await attempted;
    assert.equal(refused.status(), 422);
    assert.equal(await errorCodeOf(refused), 'form_param_value_invalid');
    assert.equal(wallet.messages.length, 2);
    assert.notEqual(wallet.messages[1], wallet.messages[0], 'the second attempt had a nonce of its own');
    assert.deepEqual(await clerkClientState(page), {
      session: null,
      sessions: 0,
      signIn: 'needs_first_factor',
      firstFactor: 'failed',
    });
    await assertCardShowsRefusal(page);
  });

  test('OKX Wallet, found by its EIP-6963 announcement, signs its owner in with its button', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const { email } = await walletOwner(suite.server.origin, owner);
    const wallet = newWallet({ account: owner });
    const { context, page } = await suite.newPage();
    await injectWallet(context, wallet);
    await page.goto(`${suite.server.origin}/sign-in`);
    const attempted = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
    await page.getByRole('button', { name: /OKX/ }).click();
    const answer = await attempted;
    assert.equal(answer.status(), 200);
    const body = (await answer.json()) as {
      response: { status: string; first_factor_verification: { strategy: string; status: string } };
    };
    assert.equal(body.response.status, 'complete');
    assert.equal(body.response.first_factor_verification.strategy, 'web3_okx_wallet_signature');
    assert.equal(body.response.first_factor_verification.status, 'verified');
    // Not window.ethereum (clerk-js's fallback, the MetaMask stand-in): the provider announced as OKX.
    assert.deepEqual(wallet.via, ['OKX Wallet']);
    await waitForClerkSession(page);
    assert.equal(await signedInEmail(page), email);
  });
});
