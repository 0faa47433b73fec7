import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { hashPassword, PasswordCheckError, verifyPassword } from '../src/crypto/passwords.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

/**
 * A stored hash argon2 cannot read (damaged in the database, written by a tool with other parameters) is
 * our fault, not the user's: the check answers a server error, logs why without the password or the hash,
 * and counts no failed attempt (which would end in a lockout the user did not cause).
 */
forEachBackend('a password check argon2 cannot make', (backend) => {
  let h: Harness;
  const logs: string[] = [];
  before(async () => {
    h = await Harness.start(backend, { logs });
  });
  after(() => h.close());

  it('is an error of its own, not a mismatch, and a mismatch is still false', async () => {
    const stored = await hashPassword(PASSWORD);
    assert.equal(await verifyPassword(stored, 'not the password'), false);
    assert.equal(await verifyPassword(stored, PASSWORD), true);
    await assert.rejects(verifyPassword(stored.slice(0, -6), PASSWORD), PasswordCheckError);
    await assert.rejects(verifyPassword('$argon2id$v=19$m=1,t=2,p=1$c2FsdHNhbHQ$aGFzaA', PASSWORD), (err) => {
      assert.ok(err instanceof PasswordCheckError);
      assert.equal(err.message.includes(PASSWORD), false);
      return true;
    });
  });

  for (const path of ['instant sign-in', 'attempt_first_factor'] as const) {
    it(`${path}: a corrupt stored hash answers 500 internal_clerk_error, counts nothing, logs no secret`, async () => {
      const email = uniqueEmail('corrupt');
      const { userId } = await signUp(h, h.browser(), email);
      const [row] = await h.db.query<{ password_hash: string }>(
        'SELECT password_hash FROM users WHERE id = $1',
        [userId],
      );
      const corrupt = row!.password_hash.slice(0, -6);
      await h.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, corrupt]);
      logs.length = 0;

      const browser = h.browser();
      for (const password of [PASSWORD, 'a wrong password 1', PASSWORD]) {
        let res;
        if (path === 'instant sign-in') {
          res = await browser.post('/client/sign_ins', { identifier: email, password });
        } else {
          const created = await browser.post('/client/sign_ins', { identifier: email });
          assert.equal(created.status, 200, JSON.stringify(created.body));
          res = await browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
            strategy: 'password',
            password,
          });
        }
        assert.equal(res.status, 500, JSON.stringify(res.body));
        assert.equal(res.body.errors[0].code, 'internal_clerk_error');
      }

      const [user] = await h.db.query<{ failed_verification_attempts: number; locked_until: Date | null }>(
        'SELECT failed_verification_attempts, locked_until FROM users WHERE id = $1',
        [userId],
      );
      assert.equal(user!.failed_verification_attempts, 0, 'no wrong password was counted');
      assert.equal(user!.locked_until, null);

      const text = logs.join('\n');
      assert.match(text, /argon2 could not check a password/);
      for (const secret of [PASSWORD, 'a wrong password 1', corrupt, corrupt.split('$').at(-1)!]) {
        assert.equal(text.includes(secret), false, `the log holds ${secret}`);
      }

      // Once the hash is repaired the password works again: nothing was locked meanwhile.
      await h.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [
        userId,
        await hashPassword(PASSWORD),
      ]);
      const ok = await h.browser().post('/client/sign_ins', { identifier: email, password: PASSWORD });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.response.status, 'complete');
    });
  }
});
