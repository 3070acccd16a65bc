import { readdirSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ROOT = import.meta.dirname;

// Machines stay pure: side effects arrive through .provide(), never through imports.
const MACHINES_MAY = 'Machines import only xstate and src/domain.';
const MACHINE_PATTERNS = [
  { group: ['react', 'react-*', '@tanstack/*', 'i18next', 'react-i18next', 'openapi-fetch', '**/src/app/*', '**/src/server/*'], message: MACHINES_MAY },
  // The contract's shapes, never its client: a machine's request and response types are the generated ones.
  { group: ['**/src/api/*'], allowTypeImports: true, message: 'Machines import only types from src/api.' },
];

/**
 * The layers and what each may import of ours besides itself (`may`, folders or files from the root; `not`, parts of
 * those it may not). Packages are free unless `packages` names the only ones. Tests (*.test.*, tests/) import anything.
 */
const LAYERS = [
  { layer: 'src/domain', may: [], says: 'src/domain imports only itself (and packages): the rules the machines, the app and the server share depend on nothing of ours.' },
  { layer: 'src/api', may: [], says: 'src/api imports only itself (and packages): the contract\'s generated types and its one client.' },
  { layer: 'src/i18n', may: ['src/domain'], says: 'src/i18n imports only src/domain (and packages).' },
  { layer: 'src/statecharts', may: [], packages: ['xstate'], says: 'src/statecharts imports only xstate: the app ships it, the scripts and the studio share it.' },
  { layer: 'machines', may: ['src/domain', 'src/api'], patterns: MACHINE_PATTERNS, says: MACHINES_MAY },
  {
    layer: 'src/app', may: ['src/domain', 'src/api', 'src/i18n', 'src/statecharts', 'machines'],
    says: 'src/app imports only src/domain, src/api, src/i18n, src/statecharts and machines/ (and packages): never src/server, scripts/ or tests/.',
  },
  {
    layer: 'src/server', may: ['src/domain', 'src/api', 'src/i18n', 'src/app/entry-server.tsx'],
    says: 'src/server imports only src/domain, src/api, src/i18n and, of the app, its server-render entry src/app/entry-server.tsx (and packages): never scripts/ or tests/.',
  },
  {
    layer: 'src/server/mail', may: ['src/domain', 'src/api', 'src/i18n', 'src/server'], not: ['src/server/billing', 'src/server/sign-in.ts', 'src/server/recovery.ts', 'src/server/routes'],
    says: 'src/server/mail imports only src/domain, src/api, src/i18n and src/server but billing/, sign-in.ts, recovery.ts and routes/ (and packages): it renders what its callers hand it.',
  },
  {
    layer: 'studio', may: ['src/domain', 'src/api', 'src/i18n', 'src/statecharts', 'src/app', 'machines'],
    says: 'studio/ imports only src/ (but src/server) and machines/ (and packages): never scripts/, src/server or tests/; its data comes as JSON from scripts/studio.',
  },
];

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const EXTENSION = '(?:\\.(?:[cm]?[jt]sx?|json))?';

/** A regex for the start of every relative specifier by which a file in `folder` names `target` or what is in it (both from the root). */
function naming(folder, target) {
  const steps = folder.split('/');
  const names = [];
  for (let up = 1; up <= steps.length; up += 1) {
    const ancestor = steps.slice(0, steps.length - up).join('/');
    const climb = escapeRegex('../'.repeat(up));
    // Up into the target itself: whatever follows, short of climbing further.
    if (ancestor === target || ancestor.startsWith(`${target}/`)) names.push(`${climb}(?!\\.\\.(?:/|$))`);
    // Up to an ancestor of the target, then down to it.
    else if (ancestor === '' || target.startsWith(`${ancestor}/`)) names.push(`${climb}${escapeRegex(ancestor === '' ? target : posix.relative(ancestor, target))}${EXTENSION}(?:/|$)`);
  }
  return `(?:${names.join('|')})`;
}
const withoutExtension = (path) => path.replace(/\.[cm]?[jt]sx?$/, '');

/** How many folders deep a layer's files lie below it, at most (0: all in the layer's own folder). */
function depthOf(layer) {
  const folders = readdirSync(join(ROOT, layer), { recursive: true, withFileTypes: true }).filter((entry) => entry.isDirectory());
  return Math.max(0, ...folders.map((entry) => relative(join(ROOT, layer), join(entry.parentPath, entry.name)).split(sep).length));
}

/**
 * A layer's fence as `@typescript-eslint/no-restricted-imports` patterns, one config per depth of folder in the layer: a
 * relative specifier names a folder only together with where the importing file lies (from src/server/routes/, `../app`
 * is src/server/app.ts, not src/app).
 */
function fence({ layer, may, not = [], packages, patterns = [], says }) {
  return Array.from({ length: depthOf(layer) + 1 }, (_, depth) => {
    const folder = `${layer}${'/x'.repeat(depth)}`;
    const allowed = [layer, ...may].map((path) => naming(folder, withoutExtension(path))).join('|');
    const fenced = [
      ...patterns,
      // Out of the layer (up past its folder) to anything it may not import.
      { regex: `^(?!${allowed})(?:\\.\\./){${depth + 1}}`, message: says },
      ...not.map((path) => ({ regex: `^${naming(folder, withoutExtension(path))}`, message: says })),
      ...(packages ? [{ regex: `^(?![./])(?!(?:${packages.map(escapeRegex).join('|')})(?:/|$))`, message: says }] : []),
    ];
    return {
      files: [`${layer}/${'*/'.repeat(depth)}*.{ts,tsx}`],
      ignores: ['**/*.test.{ts,tsx}'],
      rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: fenced }] },
    };
  });
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
  // Every layer fenced: a nested layer (src/server/mail) comes after its parent, as the last config of a file sets the rule.
  ...LAYERS.flatMap(fence),
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
