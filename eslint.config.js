// One lint setup for every workspace; formatting is Prettier's job, so no stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  { files: ['bench/**', 'scripts/**', 'e2e/**'], rules: { 'no-console': 'off' } },
  // The satellite example's page script runs in the browser, next to clerk-js.
  {
    files: ['examples/satellite-express/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // The layers of docs/identity-internals.md: the provider's domain (capabilities, instance, serializers,
  // store, foundation) never imports its HTTP layer or the assembly above it. A capability's declaration
  // (`<name>-capability.ts`, and its type in capability.ts) is assembly: it names its CLI commands.
  {
    files: ['identity/src/**/*.ts'],
    ignores: [
      'identity/src/{fapi,bapi,cli,dev}/**',
      'identity/src/{identity,main,index,capabilities,capability,declared-routes}.ts',
      'identity/src/*/*-capability.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/fapi/**', '**/bapi/**', '**/cli/**', '**/identity.ts'],
              message:
                'The domain takes data, not the HTTP layer (docs/identity-internals.md, "The layers").',
            },
          ],
        },
      ],
    },
  },
  // The provider's code in the page is installed by the entry script alone; the product never imports it.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/main.tsx', 'web/src/identity-provider/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/identity-provider/**'],
              message: "The identity provider's code in the page is installed by web/src/main.tsx only.",
            },
          ],
        },
      ],
    },
  },
);
