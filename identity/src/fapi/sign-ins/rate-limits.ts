import type { IdentityConfig } from '../../config.ts';
import type { RateLimitRule } from '../../store/rate-limits.ts';
import type { FapiRequestInfo } from '../context.ts';
import { field } from '../form.ts';
import { normalizeSignInIdentifier } from '../../phone-numbers/phone-number.ts';

export function signInAttemptLimits(config: IdentityConfig) {
  return (req: FapiRequestInfo): RateLimitRule[] => {
    const rules: RateLimitRule[] = [
      { key: `sign_in:ip:${req.ip}`, limit: config.rateLimits.signInPerIpPerMinute, windowSeconds: 60 },
    ];
    // As stored: a phone number counts once however it is written.
    const identifier =
      normalizeSignInIdentifier(field(req.body, 'identifier'), { testMode: true }) ?? req.params.id;
    if (identifier) {
      rules.push({
        key: `sign_in:id:${identifier}`,
        limit: config.rateLimits.signInPerIdentifierPerMinute,
        windowSeconds: 60,
      });
    }
    return rules;
  };
}

export function codeAttemptLimits(config: IdentityConfig) {
  return (req: FapiRequestInfo): RateLimitRule[] => [
    { key: `code:ip:${req.ip}`, limit: config.rateLimits.codeAttemptsPerIpPerMinute, windowSeconds: 60 },
    ...(req.params.id ? [{ key: `code:attempt:${req.params.id}`, limit: 10, windowSeconds: 60 }] : []),
  ];
}
