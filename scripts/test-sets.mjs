// Named sets of test-runner arguments (scripts/run-tests.mjs expands `@name`), so that `npm test` and the
// narrower scripts share one list.

/**
 * What development keys change, run a second time with them: the development-browser token,
 * `__clerk_db_jwt` instead of `__client`, its survival across a refresh and a restart, social sign-in by
 * redirect.
 */
const E2E_DEV_KEYS = [
  'IDENTITY_KEYS=development',
  ...[
    'landing',
    'sign-up',
    'sign-in',
    'api-me',
    'account',
    'session-refresh',
    'restart',
    'social-sign-in',
  ].map((name) => `e2e/tests/${name}.test.ts`),
];

/** @type {Record<string, string[]>} */
export const TEST_SETS = {
  'e2e-dev-keys': E2E_DEV_KEYS,
};
