import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const electronOnlyHere = ['src/main/index.ts', 'src/main/ipc/bind.ts', 'src/preload/index.ts'];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'native/**', 'bin/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      // zod's z object and default export re-export every locale, so a bundle keeps all of zod
      // (800 KB, 70-110 ms of every CLI start); a namespace import keeps what is used.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > :matches(ImportSpecifier[imported.name='z'][importKind!='type'], ImportDefaultSpecifier)",
          message: "Use import * as z from 'zod'.",
        },
      ],
      // The Electron-free core (store, batch, fetch, metrics, export), the CLI and the
      // renderer never import 'electron': the CLI and the tests run exactly the app's code.
      // Type-only imports are fine: they vanish at build time.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: "Only src/main/index.ts, the IPC binding and the preload import 'electron'.", allowTypeImports: true }],
        },
      ],
    },
  },
  {
    files: electronOnlyHere,
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/main/**', 'node:*', 'electron'], message: 'The renderer talks to main only through window.sift.' }] },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: globals.node },
  },
);
