import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

// About hashing itself: argon2id at the production cost (the harness would lower it).
process.env.IDENTITY_TEST_PASSWORD_HASH_COST = 'production';

const TABLES = [
  'signing_keys',
  'instance_settings',
  'users',
  'email_addresses',
  'clients',
  'sessions',
  'sign_ins',
  'sign_ups',
  'verification_codes',
  'rate_limits',
];
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const PASSWORD = 'Tr0ub4dor&3 secret';

forEachBackend('secrets at rest', (backend) => {
  let h: Harness;
  let email: string;
  let signUpCode: string;
  let signInCode: string;
  let signUpId: string;
  let signInId: string;
  let cookie: string;
  let userId: string;

  /** Every row of every table except the development outbox, as one string. */
  async function dump(): Promise<string> {
    const parts: string[] = [];
    for (const table of TABLES) parts.push(JSON.stringify(await h.db.query(`SELECT * FROM ${table}`)));
    return parts.join('\n');
  }

  before(async () => {
    h = await Harness.start(backend);
    email = uniqueEmail('secret');
    const browser = h.browser();
    const created = await browser.post('/client/sign_ups', { email_address: email, password: PASSWORD });
    signUpId = created.body.response.id;
    await browser.post(`/client/sign_ups/${signUpId}/prepare_verification`, { strategy: 'email_code' });
    signUpCode = await h.latestCode(email);
    const done = await browser.post(`/client/sign_ups/${signUpId}/attempt_verification`, {
      strategy: 'email_code',
      code: signUpCode,
    });
    assert.equal(done.status, 200);
    userId = done.body.response.created_user_id;
    // Taken after the sign-up: its completion gave the browser a new cookie.
    cookie = browser.jar.get('__client')!;

    const other = h.browser();
    const signIn = await other.post('/client/sign_ins', { identifier: email, strategy: 'email_code' });
    signInId = signIn.body.response.id;
    signInCode = await h.latestCode(email);
  });
  after(() => h.close());

  it('verification codes are stored as keyed hashes, never as the code', async () => {
    const rows = await h.db.query<{ subject: string; code_hash: string }>(
      'SELECT subject, code_hash FROM verification_codes WHERE subject LIKE $1 OR subject LIKE $2',
      [`sign_up:${signUpId}:%`, `sign_in:${signInId}:%`],
    );
    assert.equal(rows.length, 2);
    for (const row of rows) {
      assert.match(row.code_hash, /^[0-9a-f]{64}$/);
      assert.notEqual(row.code_hash, signUpCode);
      assert.notEqual(row.code_hash, signInCode);
      assert.notEqual(row.code_hash, sha256(signUpCode), 'not a plain, unkeyed hash');
      assert.notEqual(row.code_hash, sha256(signInCode), 'not a plain, unkeyed hash');
    }
    const everything = await dump();
    assert.doesNotMatch(
      everything,
      new RegExp(`(^|\\D)${signInCode}(\\D|$)`),
      'the pending sign-in code is nowhere in the database',
    );
  });

  it('passwords are stored as argon2id hashes only', async () => {
    const [user] = await h.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [userId],
    );
    assert.match(user!.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const [signUp] = await h.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM sign_ups WHERE id = $1',
      [signUpId],
    );
    assert.match(signUp!.password_hash, /^\$argon2id\$/);
    assert.equal((await dump()).includes(PASSWORD), false, 'the password is nowhere in the database');
  });

  it('the clients table stores only the SHA-256 of the cookie token', async () => {
    assert.ok(cookie && cookie.length >= 40, 'a long random cookie token');
    const rows = await h.db.query<{ id: string; token_hash: string }>(
      'SELECT id, token_hash FROM clients WHERE token_hash = $1',
      [sha256(cookie)],
    );
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]!.token_hash, cookie);
    assert.equal((await dump()).includes(cookie), false, 'the raw cookie token is nowhere in the database');
  });

  it('the Backend API secret key is stored only as its SHA-256', async () => {
    const [row] = await h.db.query<{ value: string }>(
      `SELECT value FROM instance_settings WHERE key = 'secret_key_sha256'`,
    );
    assert.equal(row!.value, sha256(h.identity.secretKey));
    assert.equal((await dump()).includes(h.identity.secretKey), false);
  });

  it('no response carries a password hash or a code hash', async () => {
    const browser = h.browser();
    const created = await browser.post('/client/sign_ups', {
      email_address: uniqueEmail(),
      password: PASSWORD,
    });
    const user = await h.bapi(`/v1/users/${userId}`);
    for (const body of [JSON.stringify(created.body), user.body]) {
      assert.equal(body.includes('$argon2'), false);
      assert.equal(body.includes('password_hash'), false);
      assert.equal(body.includes('code_hash'), false);
    }
  });
});
