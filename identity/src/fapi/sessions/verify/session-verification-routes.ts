import type { IdentityConfig } from '../../../config.ts';
import type { FapiRoute } from '../../context.ts';
import { attemptVerificationFirstFactorRoute } from './attempt-first-factor.ts';
import { attemptVerificationSecondFactorRoute } from './attempt-second-factor.ts';
import { prepareVerificationFirstFactorRoute } from './prepare-first-factor.ts';
import { prepareVerificationSecondFactorRoute } from './prepare-second-factor.ts';
import { startVerificationRoute } from './start-verification.ts';

/** Re-verification of a signed-in session (<UserVerification/>, `session.startVerification` …). */
export function sessionVerificationRoutes(config: IdentityConfig): FapiRoute[] {
  return [
    startVerificationRoute,
    prepareVerificationFirstFactorRoute,
    attemptVerificationFirstFactorRoute(config),
    prepareVerificationSecondFactorRoute,
    attemptVerificationSecondFactorRoute(config),
  ];
}
