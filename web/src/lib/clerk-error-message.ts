import { isClerkAPIResponseError } from '@clerk/clerk-react/errors';

/** The message Clerk's API gives people for a failed call (e.g. the last admin cannot be demoted). */
export function clerkErrorMessage(error: unknown, fallback: string): string {
  if (isClerkAPIResponseError(error)) {
    const first = error.errors[0];
    return first?.longMessage || first?.message || fallback;
  }
  return error instanceof Error && error.message ? error.message : fallback;
}
