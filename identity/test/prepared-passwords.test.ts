import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashPassword, verifyPassword } from '../src/crypto/passwords.ts';
import { checkPassword, hashNewPassword } from '../src/fapi/prepared-passwords.ts';
import type { Prepared } from '../src/fapi/prepared-work.ts';
import { WorkOutsideTransaction } from '../src/fapi/work-outside-transaction.ts';
import { forEachBackend } from './support/backends.ts';
import { beforeNextTransaction } from './support/transaction-hooks.ts';
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

  /** What the handler gets after asking for the work outside the transaction (run() in plugin.ts). */
  async function asked<T>(prepared: Prepared, use: (p: Prepared) => Promise<T>): Promise<T> {
    const err = await use(prepared).then(
      () => assert.fail('answered from a check of something else'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof WorkOutsideTransaction, String(err));
    return use({ ...prepared, ...(await err.work()) });
  }

  it('is not used for another stored hash (the password changed in between) or another password: the check is asked for', async () => {
    const before = await hashPassword('old password 1');
    const now = await hashPassword('new password 2');
    const prepared = { passwordCheck: { passwordHash: before, password: 'old password 1', ok: true } };
    assert.equal(await asked(prepared, (p) => checkPassword(p, now, 'old password 1')), false);
    assert.equal(await asked(prepared, (p) => checkPassword(p, before, 'new password 2')), false);
    assert.equal(await asked({}, (p) => checkPassword(p, now, 'new password 2')), true);
    // The dummy check of an unknown identifier, then the account exists after all.
    const unknown = { passwordCheck: { passwordHash: null, password: 'new password 2', ok: false } };
    assert.equal(await asked(unknown, (p) => checkPassword(p, now, 'new password 2')), true);
  });

  it('a new password hashed ahead is used only for the same password; another one is asked for', async () => {
    const made = await hashPassword('first choice 1');
    const prepared = { newPassword: { password: 'first choice 1', hash: made } };
    assert.equal(await hashNewPassword(prepared, 'first choice 1'), made);
    const other = await asked(prepared, (p) => hashNewPassword(p, 'second choice 2'));
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

  async function setPassword(userId: string, password: string): Promise<void> {
    await h.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [
      userId,
      await hashPassword(password),
    ]);
  }

  it('instant password sign-in: the old password is refused and the new one accepted', async () => {
    const email = uniqueEmail('changing');
    const { userId } = await signUp(h, h.browser(), email);

    beforeNextTransaction(h.db, () => setPassword(userId, 'replaced password 1'));
    const old = await h.browser().post('/client/sign_ins', { identifier: email, password: PASSWORD });
    assert.equal(old.status, 422, JSON.stringify(old.body));
    assert.equal(old.body.errors[0].code, 'form_password_incorrect');

    beforeNextTransaction(h.db, () => setPassword(userId, 'replaced password 2'));
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

    beforeNextTransaction(h.db, () => setPassword(userId, 'replaced password 3'));
    const old = await attempt(PASSWORD);
    assert.equal(old.status, 422, JSON.stringify(old.body));
    assert.equal(old.body.errors[0].code, 'form_password_incorrect');

    beforeNextTransaction(h.db, () => setPassword(userId, 'replaced password 4'));
    const fresh = await attempt('replaced password 4');
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.equal(fresh.body.response.status, 'complete');
  });

  it('an account created after the dummy check of an unknown identifier is checked for real', async () => {
    const email = uniqueEmail('late');
    const other = uniqueEmail('donor');
    const { userId } = await signUp(h, h.browser(), other);
    // The address becomes the donor account's between the check (unknown identifier) and the transaction.
    beforeNextTransaction(h.db, async () => {
      await h.db.query('UPDATE email_addresses SET email_address = $2 WHERE user_id = $1', [userId, email]);
    });
    const res = await h.browser().post('/client/sign_ins', { identifier: email, password: PASSWORD });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'complete');
  });
});
