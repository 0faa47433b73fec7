import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signInWithPassword } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';
import { PASSWORD, VECTORS } from './support/password-vectors.ts';

forEachBackend('Password import: password_digest + password_hasher', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
  });
  after(() => h.close());

  const storedHash = async (userId: string) =>
    (
      await h.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [userId])
    )[0]!.password_hash;

  for (const vector of VECTORS) {
    it(`${vector.hasher}: a wrong password is counted, the right one signs in and becomes argon2id`, async () => {
      const email = uniqueEmail(vector.hasher.replace(/_/g, '-'));
      const user = await clerk.users.createUser({
        emailAddress: [email],
        passwordDigest: vector.digest,
        passwordHasher: vector.hasher as 'bcrypt',
      });
      assert.equal(user.passwordEnabled, true);
      assert.deepEqual(await clerk.users.verifyPassword({ userId: user.id, password: vector.password }), {
        verified: true,
      });

      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', { identifier: email });
      const wrong = await browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
        strategy: 'password',
        password: `${vector.password}!`,
      });
      assert.equal(wrong.body.errors[0].code, 'form_password_incorrect');
      assert.equal(await h.count('users', 'id = $1 AND failed_verification_attempts = 1', [user.id]), 1);
      const before = await storedHash(user.id);

      const signedIn = await signInWithPassword(h.browser(), email, vector.password);
      assert.equal(signedIn.userId, user.id);
      const after = await storedHash(user.id);
      assert.match(after, /^\$argon2id\$/);
      // Even an argon2id digest is replaced: it was made at other parameters than ours.
      assert.notEqual(after, before);
      // The new hash is of the same password.
      await signInWithPassword(h.browser(), email, vector.password);
    });
  }

  it('updateUser takes a digest too', async () => {
    const user = await clerk.users.createUser({
      emailAddress: [uniqueEmail('upd-digest')],
      password: 'first passphrase',
    });
    await clerk.users.updateUser(user.id, { passwordDigest: VECTORS[0]!.digest, passwordHasher: 'bcrypt' });
    assert.match(await storedHash(user.id), /^imported:bcrypt:/);
    assert.deepEqual(await clerk.users.verifyPassword({ userId: user.id, password: PASSWORD }), {
      verified: true,
    });
  });

  it('a malformed digest or an unknown hasher is refused with Clerk error and nothing is written', async () => {
    const users = await h.count('users');
    const bad: [string, string][] = [
      ['bcrypt', 'not-a-bcrypt-hash'],
      ['bcrypt', '$2b$31$jIIu1BhvDVH37LjpPlNThOn77vjdyRh.D3oWQaMmMOblECNprrnZO'],
      ['argon2id', '$argon2id$v=19$m=64$abc'],
      ['argon2id', '$argon2id$v=19$m=9999999,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo'],
      ['pbkdf2_sha256', 'pbkdf2_sha256$abc$salt$hash'],
      ['pbkdf2_sha256_django', 'pbkdf2_sha256$99999999$seasalt$DrdiWD40lyBuydnjvZiDrdQMx1S1mOA9O0QYex0R6ww='],
      ['pbkdf2_sha1', 'pbkdf2_sha1$1000$seasalt$zz'],
      ['sha256', '9028ea0d15decaa3'],
      ['scrypt_firebase', 'only$three$parts'],
      ['scrypt_firebase', 'aGFzaA==$c2FsdA==$a2V5$Bw==$8$40'],
      ['sha256', 'x'.repeat(5000)],
      ['phpass', '$P$zIQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0'],
      ['scrypt_werkzeug', 'scrypt:1048576:8:1$salt$b85894086c83cd29b30da3cdb46d07d1'],
      ['ldap_ssha', '{SSHA}c2hvcnQ='],
      ['sha512_symfony', 'sha512_symfony$9999999$s$aGFzaA=='],
      ['bcrypt_sha256_django', 'bcrypt_sha256$not-bcrypt'],
      ['pbkdf2_sha512_hex', 'pbkdf2_sha512_hex$1000$nothex$abcd'],
    ];
    for (const [hasher, digest] of bad) {
      await rejectsWith(
        clerk.users.createUser({
          emailAddress: [uniqueEmail('bad-digest')],
          passwordDigest: digest,
          passwordHasher: hasher as 'bcrypt',
        }),
        422,
        'form_param_format_invalid',
        'password_digest',
      );
    }
    await rejectsWith(
      clerk.users.createUser({
        emailAddress: [uniqueEmail('bad-hasher')],
        passwordDigest: 'abc',
        passwordHasher: 'rot13' as 'bcrypt',
      }),
      422,
      'form_param_value_invalid',
      'password_hasher',
    );
    await rejectsWith(
      clerk.users.createUser({
        emailAddress: [uniqueEmail('no-hasher')],
        passwordDigest: VECTORS[0]!.digest,
      } as never),
      422,
      'form_param_nil',
      'password_hasher',
    );
    assert.equal(await h.count('users'), users);
  });
});
