import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signInWithPassword } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

const PASSWORD = 'correct horse battery';

/**
 * Digests of PASSWORD in each scheme, in Clerk's documented formats (made once with bcryptjs, argon2,
 * node:crypto's pbkdf2 and sha256). scrypt_firebase is Firebase's own published test vector
 * (github.com/firebase/scrypt), whose password is `user1password`.
 */
const VECTORS: { hasher: string; digest: string; password: string }[] = [
  {
    hasher: 'bcrypt',
    digest: '$2b$04$jIIu1BhvDVH37LjpPlNThOn77vjdyRh.D3oWQaMmMOblECNprrnZO',
    password: PASSWORD,
  },
  {
    hasher: 'argon2i',
    digest: '$argon2i$v=19$m=64,t=1,p=1$nGUJyJc2rQjO5YdzJMqteA$2uomOrpP7Bp/lMXoRDoEU0/9/en2kaAjfUMNxptTuEg',
    password: PASSWORD,
  },
  {
    hasher: 'argon2id',
    digest: '$argon2id$v=19$m=128,t=2,p=1$Iur0En3iTQ8Jdh+EMLNQAg$6JjKpbTaLH8hgzBuqxq7ufvid4JOACHVqmlPipGJVkU',
    password: PASSWORD,
  },
  {
    hasher: 'pbkdf2_sha256_django',
    digest: 'pbkdf2_sha256$1000$seasalt$DrdiWD40lyBuydnjvZiDrdQMx1S1mOA9O0QYex0R6ww=',
    password: PASSWORD,
  },
  {
    hasher: 'pbkdf2_sha256',
    digest: 'pbkdf2_sha256$1000$MDEyMzQ1Njc4OWFiY2RlZg==$BVALGMmC/K/8ELErc5VgJxyPFApArIZRCQsqjEgZWJ4=',
    password: PASSWORD,
  },
  {
    hasher: 'pbkdf2_sha1',
    digest: 'pbkdf2_sha1$1000$seasalt$2cf4db627f7ff402e3cedc740edab957e0cb60b8',
    password: PASSWORD,
  },
  {
    hasher: 'sha256',
    digest: '9028ea0d15decaa35b2da21c0290af3b1a5ba0a30a591906f89b5074e209ea72',
    password: PASSWORD,
  },
  { hasher: 'md5', digest: '88e4ddd2402d92d50e1879d6ecd9ffd4', password: PASSWORD },
  {
    hasher: 'scrypt_firebase',
    digest: [
      'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
      '42xEC+ixf3L2lw==',
      'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
      'Bw==',
      '8',
      '14',
    ].join('$'),
    password: 'user1password',
  },
];

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
