/** A user_settings attribute switched off: the Clerk UI offers nothing of it (not stubbed, not offered). */
export const ATTRIBUTE_OFF = {
  enabled: false,
  required: false,
  used_for_first_factor: false,
  first_factors: [] as string[],
  used_for_second_factor: false,
  second_factors: [] as string[],
  verifications: [] as string[],
  verify_at_sign_up: false,
};
