// Lint: typescript-eslint's recommended rules over the workspace's TypeScript.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**', '**/dist/**', '.tsbuild/**', 'server/src/db/generated/**', 'server/src/db/generated-pg/**', '.quire/**',
      'bench/.work/**', 'e2e/artifacts/**', 'test-results/**', 'desktop/dist/**', 'desktop/release/**', '.quire-desktop/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Lines at most 160 characters; long string, template and regex literals stay whole so messages and patterns remain greppable.
    rules: {
      'max-len': ['error', { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
    },
  },
  {
    // architecture.md rule 1: shared/ runs in Node, the desktop renderer and the browser.
    files: ['shared/src/**/*.ts'],
    ignores: ['shared/src/node/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'url', 'worker_threads'], message: 'shared/src runs in the browser too: no Node built-ins.' },
          { group: ['@quire/server', '@quire/server/*', '**/server/src/**'], message: 'shared/ never imports the server.' },
          { group: ['@quire/shared/node/*', '../node/*', '../../node/*', '../../../node/*'], message: 'shared/src/node is Node-only: the rest of shared/ runs in the browser too.' },
        ],
      }],
    },
  },
  {
    // shared/src/node: the engine's Node-only modules (site assets read from the installed packages), for the server and the CLI.
    files: ['shared/src/node/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['@quire/server', '@quire/server/*', '**/server/src/**'], message: 'shared/ never imports the server.' }],
      }],
    },
  },
  {
    // The docs CLI runs the engine of shared/ only (no server); its tests may compare with the server's build.
    files: ['cli/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['@quire/server', '@quire/server/*', '**/server/src/**', '**/desktop/src/**'], message: 'The CLI uses @quire/shared only.' }],
      }],
    },
  },
  {
    // architecture.md rule 3: the renderer never touches Node or Electron, and reaches the core only through tRPC (types only).
    files: ['desktop/src/renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'worker_threads', 'electron'], message: 'The renderer runs sandboxed: no Node built-ins, no Electron.' },
          { group: ['@quire/shared/node/*'], message: 'shared/src/node is Node-only.' },
          { group: ['../core/*', '../../core/*'], allowTypeImports: true, message: 'The renderer talks to the core through tRPC only (type imports are fine).' },
          { group: ['@quire/server', '@quire/server/*'], message: 'Only the core may name the server, and only its AppRouter type.' },
        ],
      }],
    },
  },
  {
    // Only the Electron shell and the preload load Electron; the core also runs as a plain Node process.
    files: ['desktop/src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['electron'], message: 'The core runs without Electron too (pnpm desktop:web).' }] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', document: 'readonly', window: 'readonly', localStorage: 'readonly', navigator: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
  },
);
