import type { InstanceSettings } from '../instance/settings/schema.ts';

/**
 * `user_settings.saml` and `user_settings.enterprise_sso` as clerk-js 5.90.0 reads them (UserSettings:
 * `{enabled}` each): enterprise SSO is on when some connection is enabled, SAML when a SAML one is.
 */
export function enterpriseSsoEnvironmentJSON(connections: InstanceSettings['enterpriseConnections']) {
  const enabled = Object.values(connections ?? {}).filter((c) => c.enabled);
  return {
    saml: { enabled: enabled.some((c) => c.protocol === 'saml') },
    enterprise_sso: { enabled: enabled.length > 0 },
  };
}
