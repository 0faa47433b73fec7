import { ApiError } from '../api/errors.ts';
import { BackendCallError } from './backend-client.ts';

/**
 * A Backend API refusal as the console's answer: an unknown object is `404 resource_not_found`; a change
 * it refuses is `422 change_refused` with its own message (an operator reads it: "this user has no
 * second factor"); an outage is `503`; anything else (our key refused) is a failure of ours, 500.
 */
export function consoleErrorOf(error: unknown): unknown {
  if (!(error instanceof BackendCallError)) return error;
  const first = error.errors[0];
  if (error.status === 404) return new ApiError('resource_not_found');
  if ([400, 409, 422].includes(error.status)) {
    return new ApiError(
      'change_refused',
      (first?.long_message || first?.message || '').slice(0, 500) || undefined,
    );
  }
  if (error.status === 429) return new ApiError('too_many_requests');
  if (error.status >= 500) return new ApiError('service_unavailable');
  return error;
}
