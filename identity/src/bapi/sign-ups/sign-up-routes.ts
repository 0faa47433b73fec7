import { errors } from '../../errors.ts';
import { signUpAttemptJSON } from '../../serializers/sign-up.ts';
import { externalIdTaken } from '../../store/admin-users.ts';
import { findSignUpById, updateSignUp, type SignUpChanges } from '../../store/sign-ups.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: sign-ups under way, as `@clerk/backend` 2.10.1's `signUps.get` and `signUps.update` call
 * them. The operator sees any sign-up of the instance (Clerk's SignUpAttempt) and may give one the id
 * its own systems know the person by (`external_id`, the user's once the sign-up completes) or mark it
 * as a custom action. A completed or abandoned sign-up changes no more.
 */

const MAX_EXTERNAL_ID = 255;

export const signUpRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/sign_ups/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const signUp = await findSignUpById(deps.db, req.params.id!);
      if (!signUp) throw errors.notFound('sign up');
      return signUpAttemptJSON(signUp);
    },
  },
  {
    method: 'PATCH',
    path: '/v1/sign_ups/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ external_id: 'string', custom_action: 'boolean' }) },
    async handler(req, deps) {
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const signUp = await findSignUpById(tx, req.params.id!, { lock: true });
        if (!signUp) throw errors.notFound('sign up');
        const changes: SignUpChanges = {};
        const externalId = req.fields.string('external_id');
        if (externalId !== undefined) {
          if (!externalId) throw errors.paramValueInvalid('external_id', 'external_id cannot be empty.');
          if (externalId.length > MAX_EXTERNAL_ID)
            throw errors.paramMaxLength('external_id', MAX_EXTERNAL_ID);
          if (await externalIdTaken(tx, externalId, null)) {
            throw errors.paramValueInvalid('external_id', 'That external ID is taken. Please try another.');
          }
          changes.external_id = externalId;
        }
        const customAction = req.fields.boolean('custom_action');
        if (customAction !== undefined) changes.custom_action = customAction;
        if (signUp.status !== 'missing_requirements' || signUp.abandon_at.getTime() <= now.getTime()) {
          throw errors.signUpNotActionable();
        }
        if (Object.keys(changes).length === 0) return signUpAttemptJSON(signUp);
        return signUpAttemptJSON(await updateSignUp(tx, signUp.id, changes, now));
      });
    },
  },
];
