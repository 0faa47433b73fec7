import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MODULE_FLAGS,
  defaultMetadataPatch,
  defaultOrganizationMetadata,
  withDefaultMetadata,
} from '../src/organizations/default-metadata.ts';

describe('organisation default public metadata', () => {
  test('names the organisation, switches every module off, French, no subscription, no family', () => {
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
  });

  test('covers the five module flags of the spec', () => {
    const defaults = defaultOrganizationMetadata('org_1');
    assert.equal(MODULE_FLAGS.length, 5);
    for (const flag of MODULE_FLAGS) assert.equal(defaults[flag], false);
  });

  test('gives a fresh object each time, so one organisation never shares arrays with another', () => {
    const a = defaultOrganizationMetadata('org_1');
    a.vcisoChildOrganizations.push('org_x');
    assert.deepEqual(defaultOrganizationMetadata('org_1').vcisoChildOrganizations, []);
  });
});

describe('defaultMetadataPatch', () => {
  test('is every default for an organisation without metadata', () => {
    assert.deepEqual(defaultMetadataPatch('org_1', null), defaultOrganizationMetadata('org_1'));
    assert.deepEqual(defaultMetadataPatch('org_1', {}), defaultOrganizationMetadata('org_1'));
  });

  test('is null once the metadata names its organisation (idempotent)', () => {
    assert.equal(defaultMetadataPatch('org_1', { organizationId: 'org_1' }), null);
    assert.equal(defaultMetadataPatch('org_1', defaultOrganizationMetadata('org_1')), null);
  });

  test('leaves out keys already present, so values written before the first read survive', () => {
    const patch = defaultMetadataPatch('org_1', { complianceModuleEnabled: true, uiLanguage: 'EN' });
    assert.ok(patch);
    assert.equal('complianceModuleEnabled' in patch, false);
    assert.equal('uiLanguage' in patch, false);
    assert.equal(patch.organizationId, 'org_1');
    assert.equal(patch.passportModuleEnabled, false);
  });

  test('writes organizationId when the stored one is not a string', () => {
    assert.equal(defaultMetadataPatch('org_1', { organizationId: 42 })?.organizationId, 'org_1');
  });
});

describe('withDefaultMetadata', () => {
  test('puts the stored values over the defaults and keeps unknown keys', () => {
    const shown = withDefaultMetadata('org_1', {
      organizationId: 'org_1',
      hexadiagModuleEnabled: true,
      extra: 1,
    });
    assert.equal(shown.hexadiagModuleEnabled, true);
    assert.equal(shown.passportModuleEnabled, false);
    assert.equal(shown.extra, 1);
  });

  test('restores parentOrganizationId: null, which a metadata merge does not store', () => {
    assert.equal(withDefaultMetadata('org_1', { organizationId: 'org_1' }).parentOrganizationId, null);
  });
});
