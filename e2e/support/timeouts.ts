/**
 * How long a test waits for the Clerk UI or the provider to reach a state before failing. Generous on
 * purpose: a loaded 2-core CI machine can take well over 15 s to render a Clerk step, and a wait that
 * expires only fails a test that would otherwise pass later; it never lets a wrong state through.
 */
export const UI_WAIT_MS = 30_000;
