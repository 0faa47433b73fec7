import { captchaInForce } from './captcha-check.ts';
import { newProofOfWorkChallenge, proofOfWorkKeys } from '../../captcha/proof-of-work.ts';
import { errors } from '../../errors.ts';
import type { FapiReadRoute } from '../context.ts';
import { formInput } from '../form-input.ts';

/**
 * GET /captcha/challenge — a proof-of-work challenge for the browser's widget (web/src/identity-provider/captcha/),
 * when this instance's captcha is the proof of work. Not Clerk's: clerk-js never calls it. Signed and
 * stateless: it writes nothing; what is stored is a solved one, when it is spent.
 */
export const captchaChallengeRoute: FapiReadRoute = {
  method: 'GET',
  path: '/captcha/challenge',
  auth: 'none',
  permission: null,
  input: { query: formInput() },
  async read(req) {
    // The widget's challenge follows the instance's settings only: a testing token waives the check of
    // what the widget produces, not the widget itself.
    const captcha = captchaInForce(req.deps, { botProtectionWaived: false });
    if (captcha?.provider !== 'proof_of_work') throw errors.captchaNotEnabled();
    const challenge = await newProofOfWorkChallenge(
      captcha.proofOfWork,
      proofOfWorkKeys(req.deps.keys.codePepper),
      req.now,
    );
    return { bare: challenge };
  },
};
