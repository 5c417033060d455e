import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';

/**
 * The layers of the code (docs/ARCHITECTURE.md "Layers"). Arrows point one way only:
 * client app → features → components → lib → contracts; bff app → features → lib/db/kisi → contracts.
 * A feature imports only itself below the app, never another feature.
 */
const elements = [
  { type: 'contracts', pattern: 'bff/contracts' },
  // The pages: who may open each, and what each reads first; the client's routes and the BFF's HTML both follow them.
  { type: 'pages', pattern: 'pages' },
  { type: 'client-app', pattern: 'client/app' },
  { type: 'client-feature', pattern: 'client/features/*', capture: ['feature'] },
  { type: 'client-components', pattern: 'client/components' },
  { type: 'client-lib', pattern: 'client/lib' },
  { type: 'client-entry', pattern: 'client/*.{ts,tsx}', partialMatch: false },
  // The client tests' fake BFF, fakes and helpers: the tests and it alone import it, production code never.
  { type: 'client-test-support', pattern: 'client/test-support' },
  { type: 'bff-feature', pattern: 'bff/features/*', capture: ['feature'] },
  { type: 'bff-kisi', pattern: 'bff/kisi' },
  { type: 'bff-db', pattern: 'bff/db' },
  { type: 'bff-lib', pattern: 'bff/lib' },
  { type: 'bff-test-support', pattern: 'bff/test-support' },
  { type: 'bff-app', pattern: 'bff/*.{ts,mts}', partialMatch: false },
];

const to = (...types) => ({ to: { element: { types: { anyOf: types } } } });
const sameFeature = (type) => ({ to: { element: { type, captured: { feature: '{{ from.element.captured.feature }}' } } } });

const policies = [
  { from: { element: { type: 'client-entry' } }, allow: to('client-app', 'client-components', 'client-lib', 'client-entry', 'contracts', 'pages') },
  { from: { element: { type: 'client-app' } }, allow: to('client-app', 'client-feature', 'client-components', 'client-lib', 'client-entry', 'contracts', 'pages') },
  { from: { element: { type: 'client-feature' } }, allow: [sameFeature('client-feature'), to('client-components', 'client-lib', 'client-entry', 'contracts', 'pages')] },
  { from: { element: { type: 'client-components' } }, allow: to('client-components', 'client-lib', 'contracts', 'pages') },
  { from: { element: { type: 'client-lib' } }, allow: to('client-lib', 'contracts', 'pages') },
  // The test support serves the tests (*.test.ts(x), each beside the code it tests, under its folder's arrows besides); no production file imports it.
  { from: { file: { path: 'client/**/*.test.{ts,tsx}' } }, allow: to('client-test-support') },
  { from: { element: { type: 'client-test-support' } }, allow: to('client-test-support', 'client-app', 'client-feature', 'client-components', 'client-lib', 'client-entry', 'contracts', 'pages') },
  { from: { element: { type: 'contracts' } }, allow: to('contracts') },
  { from: { element: { type: 'pages' } }, allow: to('pages', 'contracts') },
  { from: { element: { type: 'bff-app' } }, allow: to('bff-app', 'bff-test-support', 'bff-feature', 'bff-kisi', 'bff-db', 'bff-lib', 'contracts') },
  { from: { element: { type: 'bff-test-support' } }, allow: to('bff-app', 'bff-test-support', 'bff-feature', 'bff-kisi', 'bff-db', 'bff-lib', 'contracts', 'pages') },
  { from: { element: { type: 'bff-feature' } }, allow: [sameFeature('bff-feature'), to('bff-kisi', 'bff-db', 'bff-lib', 'contracts', 'bff-test-support', 'bff-app')] },
  { from: { element: { type: 'bff-kisi' } }, allow: to('bff-kisi', 'bff-db', 'bff-lib', 'contracts', 'bff-test-support') },
  { from: { element: { type: 'bff-db' } }, allow: to('bff-db', 'bff-lib', 'contracts', 'bff-kisi', 'bff-feature', 'bff-app', 'bff-test-support') },
  { from: { element: { type: 'bff-lib' } }, allow: to('bff-lib', 'contracts', 'pages', 'bff-test-support') },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'e2e/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['client/**/*.{ts,tsx}', 'bff/**/*.ts', 'pages/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/include': ['client/**/*', 'bff/**/*', 'pages/**/*'],
      'boundaries/legacy-templates': false,
      'import/resolver': { typescript: { project: './tsconfig.json' } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies }],
    },
  },
  {
    // The client reaches other folders by the `@/` alias; `../../` chains are not used.
    files: ['client/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./){2,}', message: 'Import with the @/ alias (or @contracts/) instead of a ../../ chain.' },
            { regex: '^@contracts/(?!.*\\.contract$)', message: 'The client imports only bff/contracts/*.contract files.' },
            { regex: '^(\\.\\./)+bff/', message: 'The client imports only bff/contracts/, through @contracts/.' },
          ],
        },
      ],
    },
  },
  {
    // The BFF never reaches into the client.
    files: ['bff/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^@/', message: 'The BFF does not import client code.' }] }] },
  },
);
