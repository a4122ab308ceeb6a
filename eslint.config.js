// Lint: typescript-eslint's recommended rules over the workspace's TypeScript.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tsbuild/**', 'server/src/db/generated/**', 'server/src/db/generated-pg/**', '.quire/**', 'bench/.work/**', 'e2e/artifacts/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // architecture.md rule 1: shared/ runs in Node, the desktop renderer and the browser.
    files: ['shared/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'url', 'worker_threads'], message: 'shared/src runs in the browser too: no Node built-ins.' },
          { group: ['@quire/server', '@quire/server/*', '**/server/src/**'], message: 'shared/ never imports the server.' },
        ],
      }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', document: 'readonly', window: 'readonly', localStorage: 'readonly', navigator: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
  },
);
