import type { VerificationState } from '../store/rows.ts';

/** Clerk's timestamps: milliseconds since the epoch, or null. */
export const ms = (d: Date | null | undefined): number | null => (d ? d.getTime() : null);

export function verificationJSON(v: VerificationState | null, extra: Record<string, unknown> = {}) {
  if (!v) return null;
  return {
    object: 'verification',
    status: v.status,
    strategy: v.strategy,
    attempts: v.attempts,
    expire_at: v.expire_at,
    ...(v.verified_at_client !== undefined ? { verified_at_client: v.verified_at_client } : {}),
    ...(v.external_verification_redirect_url !== undefined
      ? { external_verification_redirect_url: v.external_verification_redirect_url }
      : {}),
    ...(v.error !== undefined ? { error: v.error } : {}),
    ...(v.message !== undefined ? { message: v.message } : {}),
    ...extra,
  };
}
