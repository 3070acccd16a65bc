import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', '.data/', 'coverage/', 'test-results/', 'reports/', '.stryker-tmp*/', 'src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Machines stay pure: side effects arrive through .provide(), never through imports.
    files: ['machines/**/*.ts'],
    ignores: ['machines/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['react', 'react-*', '@tanstack/*', 'i18next', 'react-i18next', 'openapi-fetch', '**/src/app/*', '**/src/server/*'], message: 'Machines import only xstate and src/domain.' },
          // The contract's shapes, never its client: a machine's request and response types are the generated ones.
          { group: ['**/src/api/*'], allowTypeImports: true, message: 'Machines import only types from src/api.' },
        ],
      }],
    },
  },
  {
    // The app also runs in the server's render, where no browser exists: routes, views and actors reach the page through
    // src/app/browser.ts (the render gives it the request, read-only). An effect or an event handler, which never runs
    // in the render, says so where it touches the document.
    files: ['src/app/**/*.{ts,tsx}', 'machines/**/*.ts', 'src/domain/**/*.ts'],
    ignores: ['src/app/browser.ts', 'src/app/main.tsx', 'src/app/third-party.ts', 'src/app/inspect/**', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', ...['window', 'document', 'navigator', 'location', 'history', 'localStorage', 'sessionStorage', 'self', 'matchMedia'].map((name) => ({
        name,
        message: 'The server render has no browser: go through the page side (src/app/browser.ts), or touch it only in an effect or event handler.',
      }))],
    },
  },
);
