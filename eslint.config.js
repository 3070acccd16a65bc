import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const TESTS = ['**/*.test.{ts,tsx}'];

// Machines stay pure: side effects arrive through .provide(), never through imports.
const MACHINES_MAY = 'Machines import only xstate and src/domain.';

/**
 * The layers and what each may import of ours besides itself (`may`, folders or files from the root; `not`, parts of
 * those it may not; `packages`, import patterns of the packages it may not import). Tests (*.test.*, tests/) import anything.
 */
const LAYERS = [
  { layer: 'src/domain', may: [], says: 'src/domain imports only itself (and packages): the rules the machines, the app and the server share depend on nothing of ours.' },
  { layer: 'src/api', may: [], says: 'src/api imports only itself (and packages): the contract\'s generated types and its one client.' },
  { layer: 'src/i18n', may: ['src/domain'], says: 'src/i18n imports only src/domain (and packages).' },
  {
    layer: 'src/statecharts', may: [], says: 'src/statecharts imports only xstate: the app ships it, the scripts and the studio share it.',
    packages: [{ regex: '^(?![./])(?!xstate(?:/|$))' }],
  },
  {
    layer: 'machines', may: ['src/domain', 'src/api'], says: MACHINES_MAY,
    packages: [
      { group: ['react', 'react-*', '@tanstack/*', 'i18next', 'react-i18next', 'openapi-fetch'] },
      // The contract's shapes, never its client: a machine's request and response types are the generated ones.
      { group: ['**/src/api/*'], allowTypeImports: true, message: 'Machines import only types from src/api.' },
    ],
  },
  {
    layer: 'src/app', may: ['src/domain', 'src/api', 'src/i18n', 'src/statecharts', 'machines'],
    says: 'src/app imports only src/domain, src/api, src/i18n, src/statecharts and machines/ (and packages): never src/server, scripts/ or tests/.',
  },
  {
    layer: 'src/server', may: ['src/domain', 'src/api', 'src/i18n', 'src/app/entry-server.tsx'],
    says: 'src/server imports only src/domain, src/api, src/i18n and, of the app, its server-render entry src/app/entry-server.tsx (and packages): never scripts/ or tests/.',
  },
  {
    layer: 'src/server/flow-names.ts', may: ['src/domain', 'src/statecharts', 'machines'],
    says: 'src/server/flow-names.ts imports only src/domain, src/statecharts and machines/ (and packages): the one server module that reads the machines\' names.',
  },
  {
    layer: 'src/server/mail', may: ['src/domain', 'src/api', 'src/i18n', 'src/server'], not: ['src/server/billing', 'src/server/sign-in.ts', 'src/server/recovery.ts', 'src/server/routes'],
    says: 'src/server/mail imports only src/domain, src/api, src/i18n and src/server but billing/, sign-in.ts, recovery.ts and routes/ (and packages): it renders what its callers hand it.',
  },
  {
    layer: 'src/server/billing/whmcs', may: ['src/domain', 'src/api', 'src/i18n', 'src/server'], not: ['src/server/billing/local'],
    says: 'src/server/billing/whmcs imports what src/server may but billing/local/: what both adapters use lives in billing/shared/.',
  },
  {
    layer: 'src/server/billing/local', may: ['src/domain', 'src/api', 'src/i18n', 'src/server'], not: ['src/server/billing/whmcs'],
    says: 'src/server/billing/local imports what src/server may but billing/whmcs/: what both adapters use lives in billing/shared/.',
  },
  {
    layer: 'src/server/ops', may: ['src/domain', 'src/server'], not: ['src/server/routes', 'src/server/billing', 'src/server/mail', 'src/server/app.ts', 'src/server/main.ts'],
    says: 'src/server/ops imports only src/domain and src/server but routes/, billing/, mail/, app.ts and main.ts (and packages): what is measured hands its figures in through ShopMetrics.',
  },
  {
    layer: 'studio', may: ['src/domain', 'src/api', 'src/i18n', 'src/statecharts', 'src/app', 'machines'],
    says: 'studio/ imports only src/ (but src/server) and machines/ (and packages): never scripts/, src/server or tests/; its data comes as JSON from scripts/studio.',
  },
];

/** A layer's fence: of the repository it reaches only itself, what it may, and the packages; a nested layer comes after its parent, as the last config of a file sets the rule. */
function fence({ layer, may, not = [], packages = [], says }) {
  const zones = [
    { target: layer, from: '.', except: [layer, ...may, 'node_modules'], message: says },
    ...(not.length > 0 ? [{ target: layer, from: not, message: says }] : []),
  ];
  return {
    // A layer is a folder, or one file fenced apart from its folder.
    files: [/\.tsx?$/.test(layer) ? layer : `${layer}/**/*.{ts,tsx}`],
    ignores: TESTS,
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones }],
      ...(packages.length > 0 ? { '@typescript-eslint/no-restricted-imports': ['error', { patterns: packages.map((pattern) => ({ message: says, ...pattern })) }] } : {}),
    },
  };
}

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
    plugins: { 'import-x': importX },
    // The fences compare where an import lands, so the resolver finds the repository's extension-less TypeScript imports.
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js', '.json'] })] },
  },
  ...LAYERS.map(fence),
  {
    // The app also runs in the server's render, where no browser exists: routes, views and actors reach the page through
    // src/app/browser.ts (the render gives it the request, read-only). An effect or an event handler, which never runs
    // in the render, says so where it touches the document.
    files: ['src/app/**/*.{ts,tsx}', 'machines/**/*.ts', 'src/domain/**/*.ts'],
    // The flow sender is a browser-only chunk main.tsx loads after hydration.
    ignores: ['src/app/browser.ts', 'src/app/main.tsx', 'src/app/third-party.ts', 'src/app/inspect/**', 'src/app/flow/sender.ts', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', ...['window', 'document', 'navigator', 'location', 'history', 'localStorage', 'sessionStorage', 'self', 'matchMedia'].map((name) => ({
        name,
        message: 'The server render has no browser: go through the page side (src/app/browser.ts), or touch it only in an effect or event handler.',
      }))],
    },
  },
);
