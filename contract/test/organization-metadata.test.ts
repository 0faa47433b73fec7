import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MODULE_FLAGS,
  defaultMetadataPatch,
  defaultOrganizationMetadata,
  mergeOrganizationMetadata,
  moduleFlagsOf,
  organizationMetadataWithDefaults,
  organizationPublicMetadataSchema,
  parseOrganizationPublicMetadata,
  subscriptionStatusOf,
} from '../src/index.ts';

describe('organisation public metadata', () => {
  test('defaults: names the organisation, every module off, French, no subscription, no family', () => {
    assert.deepEqual(defaultOrganizationMetadata('org_1'), {
      organizationId: 'org_1',
      vCisoModuleEnabled: false,
      complianceModuleEnabled: false,
      qompanionModuleEnabled: false,
      hexadiagModuleEnabled: false,
      passportModuleEnabled: false,
      uiLanguage: 'FR',
      hasActiveSubscription: 'NO',
      vcisoChildOrganizations: [],
      parentOrganizationId: null,
    });
    assert.equal(MODULE_FLAGS.length, 5);
    assert.ok(organizationPublicMetadataSchema.safeParse(defaultOrganizationMetadata('org_1')).success);
  });

  test('the defaults are a fresh object each time: no array is shared between organisations', () => {
    defaultOrganizationMetadata('org_1').vcisoChildOrganizations.push('org_x');
    assert.deepEqual(defaultOrganizationMetadata('org_1').vcisoChildOrganizations, []);
  });

  test('the complete schema refuses a malformed known field and keeps unknown keys', () => {
    const complete = { ...defaultOrganizationMetadata('org_1'), custom: 'kept' };
    assert.equal(organizationPublicMetadataSchema.parse(complete).custom, 'kept');
    for (const bad of [
      { uiLanguage: 'DE' },
      { hasActiveSubscription: 'MAYBE' },
      { vCisoModuleEnabled: 'true' },
      { vcisoChildOrganizations: 'org_2' },
      { parentOrganizationId: '' },
    ]) {
      assert.equal(organizationPublicMetadataSchema.safeParse({ ...complete, ...bad }).success, false);
    }
  });

  test('parse keeps well-formed known fields only', () => {
    assert.deepEqual(parseOrganizationPublicMetadata(null), {});
    assert.deepEqual(parseOrganizationPublicMetadata(['EN']), {});
    assert.deepEqual(
      parseOrganizationPublicMetadata({
        organizationId: 42,
        vCisoModuleEnabled: true,
        complianceModuleEnabled: 'yes',
        uiLanguage: 'EN',
        hasActiveSubscription: 'SOMETIMES',
        vcisoChildOrganizations: ['org_2', 7, null, 'org_3'],
        parentOrganizationId: null,
        custom: 1,
      }),
      {
        vCisoModuleEnabled: true,
        uiLanguage: 'EN',
        vcisoChildOrganizations: ['org_2', 'org_3'],
        parentOrganizationId: null,
      },
    );
  });

  test('with defaults: missing or malformed known fields read as their default, unknown keys stay', () => {
    const shown = organizationMetadataWithDefaults('org_1', {
      hexadiagModuleEnabled: true,
      passportModuleEnabled: 'on',
      uiLanguage: 'DE',
      hasActiveSubscription: 'TRIAL',
      parentOrganizationId: '',
      extra: { nested: true },
    });
    assert.deepEqual(shown, {
      ...defaultOrganizationMetadata('org_1'),
      hexadiagModuleEnabled: true,
      hasActiveSubscription: 'TRIAL',
      extra: { nested: true },
    });
    assert.ok(organizationPublicMetadataSchema.safeParse(shown).success);
    assert.deepEqual(organizationMetadataWithDefaults('org_1', null), defaultOrganizationMetadata('org_1'));
  });

  test('with defaults restores parentOrganizationId: null, which a metadata merge does not store', () => {
    assert.equal(
      organizationMetadataWithDefaults('org_1', { organizationId: 'org_1' }).parentOrganizationId,
      null,
    );
  });

  test('merge: the update wins key by key, its malformed fields are ignored', () => {
    const current = organizationMetadataWithDefaults('org_1', { vCisoModuleEnabled: true });
    const merged = mergeOrganizationMetadata(current, {
      complianceModuleEnabled: true,
      uiLanguage: 'XX' as never,
    });
    assert.equal(merged.vCisoModuleEnabled, true);
    assert.equal(merged.complianceModuleEnabled, true);
    assert.equal(merged.uiLanguage, 'FR');
    assert.deepEqual(mergeOrganizationMetadata({ uiLanguage: 'EN' }, null), { uiLanguage: 'EN' });
  });

  test('default patch: every default when nothing is stored, none once written, never over a stored key', () => {
    // The subscription flag is a projection of billing, never a default written over it (issue #17).
    const { hasActiveSubscription: _projected, ...defaults } = defaultOrganizationMetadata('org_1');
    assert.deepEqual(defaultMetadataPatch('org_1', null), defaults);
    assert.equal('hasActiveSubscription' in defaultMetadataPatch('org_1', null)!, false);
    assert.equal(defaultMetadataPatch('org_1', { organizationId: 'org_1' }), null);
    const patch = defaultMetadataPatch('org_1', { complianceModuleEnabled: true, organizationId: 42 });
    assert.ok(patch);
    assert.equal('complianceModuleEnabled' in patch, false);
    assert.equal(patch.organizationId, 'org_1');
  });

  test('module flags: only an explicit true is on; subscription: anything unexpected is NO', () => {
    assert.deepEqual(moduleFlagsOf({ vCisoModuleEnabled: true, complianceModuleEnabled: 'true' }), {
      vCisoModuleEnabled: true,
      complianceModuleEnabled: false,
      qompanionModuleEnabled: false,
      hexadiagModuleEnabled: false,
      passportModuleEnabled: false,
    });
    assert.equal(subscriptionStatusOf({ hasActiveSubscription: 'TRIAL' }), 'TRIAL');
    assert.equal(subscriptionStatusOf({ hasActiveSubscription: 'yes' }), 'NO');
    assert.equal(subscriptionStatusOf(undefined), 'NO');
  });
});
