import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { assertError } from './support/organizations.ts';
import { signUp } from './support/flows.ts';
import { FAPI, Harness, PUBLIC_URL, uniqueEmail } from './support/harness.ts';
import { GIF, PNG, uploadImage } from './support/images.ts';

forEachBackend('the profile image', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  async function member() {
    const browser = h.browser();
    return { browser, ...(await signUp(h, browser, uniqueEmail('pic'))) };
  }

  it('a new user has the default image from our origin, which clerk-js recognises as a placeholder', async () => {
    const { client } = await member();
    const user = client.sessions[0].user;
    assert.equal(user.has_image, false);
    assert.equal(user.image_url, `${PUBLIC_URL}${FAPI}/v1/avatars/avatar_placeholder.svg`);
    const served = await h.app.inject({ method: 'GET', url: `${FAPI}/v1/avatars/avatar_placeholder.svg` });
    assert.equal(served.statusCode, 200);
  });

  it('uploads a PNG (multipart `file`) served from our own origin, then removes it', async () => {
    const { browser, userId } = await member();
    const res = await uploadImage(h, browser, '/me/profile_image', {
      file: PNG,
      type: 'image/png',
      filename: 'me.png',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.object, 'image');
    assert.match(res.body.response.id, /^img_/);
    assert.equal(res.body.response.name, 'me.png');
    const url: string = res.body.response.public_url;
    assert.equal(url, `${PUBLIC_URL}${FAPI}/v1/images/users/${userId}?v=${res.body.response.id}`);

    const me = await browser.get('/me');
    assert.equal(me.body.response.has_image, true);
    assert.equal(me.body.response.image_url, url);

    const served = await h.app.inject({ method: 'GET', url: url.slice(PUBLIC_URL.length) });
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.equal(served.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(served.rawPayload, PNG);

    const removed = await browser.delete('/me/profile_image');
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.client.sessions[0].user.has_image, false);
    const gone = await h.app.inject({ method: 'GET', url: url.slice(PUBLIC_URL.length) });
    assert.equal(gone.statusCode, 404);
    assertError(await browser.delete('/me/profile_image'), 404, 'resource_not_found');
  });

  it('a new image gets a new URL; a data URL body (clerk-js sends strings raw) works too', async () => {
    const { browser, userId } = await member();
    const first = await uploadImage(h, browser, '/me/profile_image', { file: PNG, type: 'image/png' });
    const second = await uploadImage(h, browser, '/me/profile_image', {
      raw: `data:image/gif;base64,${GIF.toString('base64')}`,
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.notEqual(second.body.response.public_url, first.body.response.public_url);
    const served = await h.app.inject({ method: 'GET', url: `${FAPI}/v1/images/users/${userId}` });
    assert.equal(served.headers['content-type'], 'image/gif');
    assert.equal(await h.count('user_images', 'user_id = $1', [userId]), 1);
  });

  it('only PNG, JPEG, GIF and WebP up to 10 MB, judged by the bytes, not the name or the type', async () => {
    const { browser, userId } = await member();
    const refused = [
      {
        file: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        type: 'image/png',
        filename: 'x.png',
      },
      { file: PNG, type: 'text/html', filename: 'x.png' },
      { file: Buffer.from('GIF8 not really'), type: 'image/gif' },
      { file: Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]), type: 'image/png' },
      { file: Buffer.alloc(0), type: 'image/png' },
    ];
    for (const body of refused) {
      assertError(await uploadImage(h, browser, '/me/profile_image', body), 422, 'form_param_value_invalid');
    }
    assertError(
      await uploadImage(h, browser, '/me/profile_image', { raw: 'data:text/plain;base64,aGVsbG8=' }),
      422,
      'form_param_value_invalid',
    );
    assert.equal(await h.count('user_images', 'user_id = $1', [userId]), 0);
    // A real image under a misleading name is fine: the bytes decide.
    const jpegNamed = await uploadImage(h, browser, '/me/profile_image', {
      file: GIF,
      type: 'image/gif',
      filename: 'photo.jpg',
    });
    assert.equal(jpegNamed.status, 200);
    const served = await h.app.inject({ method: 'GET', url: `${FAPI}/v1/images/users/${userId}` });
    assert.equal(served.headers['content-type'], 'image/gif');
  });

  it('needs a signed-in session; the session and a later sign-in show the image', async () => {
    assertError(
      await uploadImage(h, h.browser(), '/me/profile_image', { file: PNG, type: 'image/png' }),
      404,
      'resource_not_found',
    );
    const { browser, client } = await member();
    const email = client.sessions[0].user.email_addresses[0].email_address;
    const uploaded = await uploadImage(h, browser, '/me/profile_image', { file: PNG, type: 'image/png' });
    assert.equal(uploaded.body.client.sessions[0].public_user_data.has_image, true);
    const signIn = await h.browser().post('/client/sign_ins', { identifier: email });
    assert.equal(signIn.body.response.user_data.has_image, true);
    assert.equal(signIn.body.response.user_data.image_url, uploaded.body.response.public_url);
  });
});
