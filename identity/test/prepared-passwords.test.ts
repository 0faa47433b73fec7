import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashPassword, verifyPassword } from '../src/crypto/passwords.ts';
import type { Database, Transaction } from '../src/db/database.ts';
import { checkPassword, hashNewPassword } from '../src/fapi/prepared-passwords.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

/**
 * Password checks and new-password hashes are made before the request's transaction (plugin.ts run()):
 * the handler may use them only when they are bound to what it reads inside the transaction.
 */
describe('a password check made before the transaction', () => {
  it('answers for the very stored hash and password it was made with, without hashing again', async () => {
    const stored = await hashPassword(PASSWORD);
    // A verdict the real check would not give: it can only come from the prepared one.
    const prepared = { passwordCheck: { passwordHash: stored, password: 'wrong one', ok: true } };
    assert.equal(await checkPassword(prepared, stored, 'wrong one'), true);
  });

  it('is ignored for another stored hash (the password changed in between) or another password', async () => {
    const before = await hashPassword('old password 1');
    const now = await hashPassword('new password 2');
    const prepared = { passwordCheck: { passwordHash: before, password: 'old password 1', ok: true } };
    assert.equal(await checkPassword(prepared, now, 'old password 1'), false);
    assert.equal(await checkPassword(prepared, before, 'new password 2'), false);
    assert.equal(await checkPassword({}, now, 'new password 2'), true);
    // The dummy check of an unknown identifier, then the account exists after all.
    const unknown = { passwordCheck: { passwordHash: null, password: 'new password 2', ok: false } };
    assert.equal(await checkPassword(unknown, now, 'new password 2'), true);
  });

  it('a new password hashed ahead is used only for the same password', async () => {
    const made = await hashPassword('first choice 1');
    const prepared = { newPassword: { password: 'first choice 1', hash: made } };
    assert.equal(await hashNewPassword(prepared, 'first choice 1'), made);
    const other = await hashNewPassword(prepared, 'second choice 2');
    assert.notEqual(other, made);
    assert.equal(await verifyPassword(other, 'second choice 2'), true);
  });
});

forEachBackend('password changed between the check and the transaction', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  /** Runs `change` once, right before the next transaction starts (after the route's beforeTransaction). */
  function beforeNextTransaction(change: () => Promise<void>): void {
    const db = h.db as { transaction: Database['transaction'] };
    const original = db.transaction.bind(h.db);
    db.transaction = async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
      db.transaction = original;
      await change();
      return original(fn);
    };
  }

  async function setPassword(userId: string, password: string): Promise<void> {
    await h.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [
      userId,
      await hashPassword(password),
    ]);
  }

  it('instant password sign-in: the old password is refused and the new one accepted', async () => {
    const email = uniqueEmail('changing');
    const { userId } = await signUp(h, h.browser(), email);

    beforeNextTransaction(() => setPassword(userId, 'replaced password 1'));
    const old = await h.browser().post('/client/sign_ins', { identifier: email, password: PASSWORD });
    assert.equal(old.status, 422, JSON.stringify(old.body));
    assert.equal(old.body.errors[0].code, 'form_password_incorrect');

    beforeNextTransaction(() => setPassword(userId, 'replaced password 2'));
    const fresh = await h
      .browser()
      .post('/client/sign_ins', { identifier: email, password: 'replaced password 2' });
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.equal(fresh.body.response.status, 'complete');
  });

  it('attempt_first_factor: the old password is refused and the new one accepted', async () => {
    const email = uniqueEmail('changing');
    const { userId } = await signUp(h, h.browser(), email);
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: email });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const attempt = (password: string) =>
      browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
        strategy: 'password',
        password,
      });

    beforeNextTransaction(() => setPassword(userId, 'replaced password 3'));
    const old = await attempt(PASSWORD);
    assert.equal(old.status, 422, JSON.stringify(old.body));
    assert.equal(old.body.errors[0].code, 'form_password_incorrect');

    beforeNextTransaction(() => setPassword(userId, 'replaced password 4'));
    const fresh = await attempt('replaced password 4');
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.equal(fresh.body.response.status, 'complete');
  });

  it('an account created after the dummy check of an unknown identifier is checked for real', async () => {
    const email = uniqueEmail('late');
    const other = uniqueEmail('donor');
    const { userId } = await signUp(h, h.browser(), other);
    // The address becomes the donor account's between the check (unknown identifier) and the transaction.
    beforeNextTransaction(async () => {
      await h.db.query('UPDATE email_addresses SET email_address = $2 WHERE user_id = $1', [userId, email]);
    });
    const res = await h.browser().post('/client/sign_ins', { identifier: email, password: PASSWORD });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'complete');
  });
});
