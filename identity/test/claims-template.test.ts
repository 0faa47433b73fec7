// The session token's claims template (instance/settings/claims-template.ts): pure, so it runs once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ClaimsTemplateError,
  CUSTOM_CLAIMS_MAX_BYTES,
  customClaimsTooLarge,
  JWT_TEMPLATE_CLAIMS_MAX_BYTES,
  JWT_TEMPLATE_RESERVED_CLAIMS,
  parseClaimsTemplate,
  RESERVED_CLAIMS,
  SHORTCODES,
  type ClaimsSubject,
} from '../src/instance/settings/claims-template.ts';

const CREATED = new Date('2025-01-02T03:04:05.678Z');
const UPDATED = new Date('2025-06-07T08:09:10.000Z');

function subject(overrides: Partial<ClaimsSubject> = {}): ClaimsSubject {
  return {
    user: {
      id: 'user_123',
      external_id: 'ext-9',
      first_name: 'Ada',
      last_name: 'Lovelace',
      username: 'ada',
      image_url: 'https://img.example/ada.png',
      has_image: true,
      public_metadata: { plan: 'pro', profile: { tier: 3, tags: ['a', 'b'] } },
      unsafe_metadata: { theme: 'dark' },
      created_at: CREATED,
      updated_at: UPDATED,
    },
    primaryEmail: { email_address: 'ada@example.com', verified: true },
    primaryPhone: { phone_number: '+15555550100', verified: false },
    organization: {
      id: 'org_1',
      name: 'Analytical Engines',
      slug: 'engines',
      image_url: 'https://img.example/org.png',
      has_image: true,
      public_metadata: { modules: ['risk'] },
    },
    membership: {
      role: 'org:admin',
      permissions: ['org:sys_memberships:manage'],
      public_metadata: { desk: 4 },
    },
    ...overrides,
  };
}

const render = (claims: Record<string, unknown>, s: ClaimsSubject = subject()) =>
  parseClaimsTemplate(claims).render(s);

function refusal(claims: unknown): ClaimsTemplateError {
  try {
    parseClaimsTemplate(claims);
  } catch (err) {
    assert.ok(err instanceof ClaimsTemplateError, String(err));
    return err;
  }
  assert.fail(`accepted: ${JSON.stringify(claims)}`);
}

describe('session token claims template', () => {
  it('renders every shortcode with its own type', () => {
    const expected: Record<string, unknown> = {
      'user.id': 'user_123',
      'user.external_id': 'ext-9',
      'user.first_name': 'Ada',
      'user.last_name': 'Lovelace',
      'user.full_name': 'Ada Lovelace',
      'user.username': 'ada',
      'user.primary_email_address': 'ada@example.com',
      'user.email_verified': true,
      'user.primary_phone_number': '+15555550100',
      'user.phone_number_verified': false,
      'user.image_url': 'https://img.example/ada.png',
      'user.profile_image_url': 'https://img.example/ada.png',
      'user.has_image': true,
      'user.created_at': Math.floor(CREATED.getTime() / 1000),
      'user.updated_at': Math.floor(UPDATED.getTime() / 1000),
      'user.public_metadata': { plan: 'pro', profile: { tier: 3, tags: ['a', 'b'] } },
      'user.unsafe_metadata': { theme: 'dark' },
      'org.id': 'org_1',
      'org.name': 'Analytical Engines',
      'org.slug': 'engines',
      'org.image_url': 'https://img.example/org.png',
      'org.has_image': true,
      'org.public_metadata': { modules: ['risk'] },
      'org.role': 'org:admin',
      'org.permissions': ['org:sys_memberships:manage'],
      'org_membership.public_metadata': { desk: 4 },
    };
    assert.deepEqual(
      Object.keys(expected).sort(),
      Object.keys(SHORTCODES).sort(),
      'every shortcode is tested',
    );
    // Claim names like "org_membership…" would be reserved: each claim is named "x:<shortcode>".
    const template = Object.fromEntries(Object.keys(expected).map((code) => [`x:${code}`, `{{${code}}}`]));
    const rendered = render(template);
    assert.deepEqual(Object.fromEntries(Object.entries(rendered).map(([k, v]) => [k.slice(2), v])), expected);
  });

  it('the product default renders email, first_name and last_name', () => {
    assert.deepEqual(
      render({
        email: '{{user.primary_email_address}}',
        first_name: '{{user.first_name}}',
        last_name: '{{user.last_name}}',
      }),
      { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    );
  });

  it('missing values are null, never "null" or undefined', () => {
    const bare = subject({
      primaryEmail: null,
      primaryPhone: null,
      organization: null,
      membership: null,
    });
    bare.user = { ...bare.user, first_name: null, last_name: null, username: null, external_id: null };
    assert.deepEqual(
      render(
        {
          email: '{{user.primary_email_address}}',
          verified: '{{user.email_verified}}',
          phone: '{{user.primary_phone_number}}',
          name: '{{user.first_name}}',
          full: '{{user.full_name}}',
          org: '{{org.id}}',
          role: '{{org.role}}',
          perms: '{{org.permissions}}',
          deep: '{{user.public_metadata.nothing.here}}',
        },
        bare,
      ),
      {
        email: null,
        verified: false,
        phone: null,
        name: null,
        full: null,
        org: null,
        role: null,
        perms: null,
        deep: null,
      },
    );
  });

  it('interpolates shortcodes in text; a null inside text is empty', () => {
    assert.deepEqual(render({ name: '{{user.first_name}} {{user.last_name}}' }), { name: 'Ada Lovelace' });
    assert.deepEqual(render({ hello: 'Hi {{ user.username }}!' }), { hello: 'Hi ada!' });
    const noLast = subject();
    noLast.user = { ...noLast.user, last_name: null };
    assert.deepEqual(render({ name: '{{user.first_name}} {{user.last_name}}' }, noLast), { name: 'Ada ' });
    assert.deepEqual(render({ id: 'tier-{{user.public_metadata.profile.tier}}' }), { id: 'tier-3' });
    assert.deepEqual(render({ m: 'm={{user.unsafe_metadata}}' }), { m: 'm={"theme":"dark"}' });
  });

  it('reads metadata at any depth, keeping the value type', () => {
    assert.deepEqual(
      render({
        plan: '{{user.public_metadata.plan}}',
        tier: '{{user.public_metadata.profile.tier}}',
        tags: '{{user.public_metadata.profile.tags}}',
        modules: '{{org.public_metadata.modules}}',
        desk: '{{org_membership.public_metadata.desk}}',
        // A key of an array or a string is no metadata field: null, not a character or an element.
        nope: '{{user.public_metadata.plan.length}}',
      }),
      { plan: 'pro', tier: 3, tags: ['a', 'b'], modules: ['risk'], desk: 4, nope: null },
    );
  });

  it('falls back with || to the next operand or a literal', () => {
    const s = subject();
    s.user = { ...s.user, username: null };
    assert.deepEqual(
      render(
        {
          a: '{{user.username || user.first_name}}',
          b: "{{user.public_metadata.missing || 'free'}}",
          c: '{{user.public_metadata.missing || "x"}}',
          d: '{{user.username || null}}',
          e: '{{user.public_metadata.missing || 42}}',
          f: '{{user.public_metadata.missing || false}}',
          g: "{{user.public_metadata.plan || 'free'}}",
        },
        s,
      ),
      { a: 'Ada', b: 'free', c: 'x', d: null, e: 42, f: false, g: 'pro' },
    );
  });

  it('passes static values through at any depth and renders shortcodes nested in objects and arrays', () => {
    assert.deepEqual(
      render({
        aud: 'https://api.example.com',
        n: 1.5,
        t: true,
        z: null,
        list: ['x', '{{user.id}}', { deep: '{{org.slug}}' }],
        'https://hasura.io/jwt/claims': {
          'x-hasura-user-id': '{{user.id}}',
          'x-hasura-default-role': 'user',
        },
      }),
      {
        aud: 'https://api.example.com',
        n: 1.5,
        t: true,
        z: null,
        list: ['x', 'user_123', { deep: 'engines' }],
        'https://hasura.io/jwt/claims': { 'x-hasura-user-id': 'user_123', 'x-hasura-default-role': 'user' },
      },
    );
  });

  it('an empty template renders nothing and says so', () => {
    const template = parseClaimsTemplate({});
    assert.equal(template.empty, true);
    assert.deepEqual(template.render(subject()), {});
  });

  it('knows whether the organisation is read (one more query when minting)', () => {
    assert.equal(parseClaimsTemplate({ e: '{{user.primary_email_address}}' }).usesOrganization, false);
    assert.equal(parseClaimsTemplate({ g: 'x {{org.slug}}' }).usesOrganization, true);
    assert.equal(parseClaimsTemplate({ g: ['{{org_membership.public_metadata.a}}'] }).usesOrganization, true);
  });

  it('refuses every claim the provider sets itself, and the org_ prefix', () => {
    for (const name of [
      ...RESERVED_CLAIMS,
      'org_id',
      'org_slug',
      'org_role',
      'org_permissions',
      'org_anything',
    ]) {
      const err = refusal({ [name]: 'x' });
      assert.equal(err.path, `claims.${name}`);
      assert.match(err.reason, /provider sets itself/);
    }
    for (const name of ['sub', 'sid', 'iat', 'exp', 'nbf', 'iss', 'azp', 'v', 'fva', 'act', 'sts']) {
      assert.ok(RESERVED_CLAIMS.has(name), name);
    }
    // Only top-level names are claims: nested keys are the claim's own data.
    assert.deepEqual(render({ meta: { sub: 'x' } }), { meta: { sub: 'x' } });
  });

  it('refuses unknown shortcodes, malformed ones and non-objects, naming the claim', () => {
    const cases: [unknown, string, RegExp][] = [
      [{ a: '{{user.password}}' }, 'claims.a', /not a supported shortcode/],
      [{ a: '{{user.private_metadata}}' }, 'claims.a', /not a supported shortcode/],
      [{ a: '{{session.id}}' }, 'claims.a', /not a supported shortcode/],
      [{ a: '{{user.public_metadata.a b}}' }, 'claims.a', /not a supported shortcode/],
      [{ a: '{{user.first_name' }, 'claims.a', /unclosed or empty/],
      [{ a: 'x }} {{' }, 'claims.a', /unclosed or empty/],
      [{ a: '{{}}' }, 'claims.a', /empty operand/],
      [{ a: '{{user.id ||}}' }, 'claims.a', /empty operand/],
      [{ a: { b: ['{{nope}}'] } }, 'claims.a.b[0]', /not a supported shortcode/],
      [[], 'claims', /JSON object/],
      ['{{user.id}}', 'claims', /JSON object/],
      [null, 'claims', /JSON object/],
    ];
    for (const [template, path, reason] of cases) {
      const err = refusal(template);
      assert.equal(err.path, path, JSON.stringify(template));
      assert.match(err.reason, reason, JSON.stringify(template));
    }
  });

  it('refuses a template over the custom claims bound when it is set', () => {
    const under = { a: 'x'.repeat(CUSTOM_CLAIMS_MAX_BYTES - 10) };
    assert.ok(Buffer.byteLength(JSON.stringify(under)) <= CUSTOM_CLAIMS_MAX_BYTES);
    parseClaimsTemplate(under);
    const over = { a: 'é'.repeat(CUSTOM_CLAIMS_MAX_BYTES / 2) }; // bytes, not characters
    const err = refusal(over);
    assert.match(err.reason, /limited to 1200 bytes/);
    assert.equal(CUSTOM_CLAIMS_MAX_BYTES, 1200);
  });

  it('tells rendered claims over the bound (large metadata) from those within it', () => {
    const template = parseClaimsTemplate({ meta: '{{user.public_metadata}}' });
    const big = subject();
    big.user = { ...big.user, public_metadata: { blob: 'x'.repeat(2000) } };
    assert.equal(customClaimsTooLarge(template.render(subject())), false);
    assert.equal(customClaimsTooLarge(template.render(big)), true);
  });
});

describe("JWT template claims (the jwt_template dialect, Clerk's JWT templates guide)", () => {
  const jwt = (claims: Record<string, unknown>, s: ClaimsSubject = subject()) =>
    parseClaimsTemplate(claims, 'claims', 'jwt_template').render(s);
  const noNames = subject({
    user: { ...subject().user, first_name: null, last_name: null, public_metadata: {} },
    primaryPhone: { phone_number: '+15555550100', verified: true },
    primaryEmail: { email_address: 'ada@example.com', verified: false },
  });

  it("renders Clerk's complete example: unknown shortcodes null, null in text reads null", () => {
    assert.deepEqual(
      jwt({
        aud: 'https://my-site.com',
        version: 1,
        foo: { bar: [1, 2, 3] },
        user_id: '{{user.id}}',
        full_name: '{{user.last_name}} {{user.first_name}}',
        phone: '{{user.primary_phone_address}}',
        likes_to_do: '{{user.public_metadata.profile.tags}}',
        invalid_shortcode: '{{user.i_dont_exist}}',
        nobody: '{{users.user_other.id}} {{session.id}}',
      }),
      {
        aud: 'https://my-site.com',
        version: 1,
        foo: { bar: [1, 2, 3] },
        user_id: 'user_123',
        full_name: 'Lovelace Ada',
        phone: null,
        likes_to_do: ['a', 'b'],
        invalid_shortcode: null,
        nobody: 'null null',
      },
    );
    assert.equal(jwt({ n: '{{user.last_name}} {{user.first_name}}' }, noNames).n, 'null null');
  });

  it('|| skips null and false and falls back to the last operand whatever it is', () => {
    assert.deepEqual(
      jwt(
        {
          has_verified_contact_info: '{{user.email_verified || user.phone_number_verified}}',
          full_name: "{{user.full_name || 'Awesome User'}}",
          age: '{{user.public_metadata.age || user.unsafe_metadata.age || 30 }}',
          last_false: '{{user.email_verified || false}}',
          last_null: '{{user.first_name || user.last_name}}',
        },
        noNames,
      ),
      {
        has_verified_contact_info: true,
        full_name: 'Awesome User',
        age: 30,
        last_false: false,
        last_null: null,
      },
    );
  });

  it('reserves the registered claims only, and allows 8 KB', () => {
    for (const name of JWT_TEMPLATE_RESERVED_CLAIMS) {
      assert.throws(() => parseClaimsTemplate({ [name]: 1 }, 'claims', 'jwt_template'), ClaimsTemplateError);
    }
    assert.deepEqual(jwt({ org_id: '{{org.id}}', pla: 'x', v: 2 }), { org_id: 'org_1', pla: 'x', v: 2 });
    parseClaimsTemplate({ a: 'x'.repeat(JWT_TEMPLATE_CLAIMS_MAX_BYTES - 10) }, 'claims', 'jwt_template');
    assert.throws(
      () => parseClaimsTemplate({ a: 'x'.repeat(JWT_TEMPLATE_CLAIMS_MAX_BYTES) }, 'claims', 'jwt_template'),
      /limited to 8192 bytes/,
    );
    assert.throws(() => parseClaimsTemplate({ a: '{{user.id' }, 'claims', 'jwt_template'), /unclosed/);
  });
});
