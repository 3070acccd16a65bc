/**
 * The layer fences of eslint.config.js: an import planted across each fence is an error naming what the layer may
 * import, and an import the layer may make, planted in the same file, is none.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Our folders are fenced by where an import lands, packages by its name.
const RULES = ['import-x/no-restricted-paths', '@typescript-eslint/no-restricted-imports'];

interface Fence {
  /** A file of the layer (it need not exist). */
  file: string;
  /** Imports across the fence. */
  fenced: string[];
  /** Imports the layer may make. */
  allowed: string[];
  /** What the error says the layer may import. */
  says: string;
}

const FENCES: Fence[] = [
  {
    file: 'src/domain/planted.ts',
    fenced: ['../app/format', '../server/merchant', '../../tests/support/fake-api', '../../package.json'],
    allowed: ['./pricing', 'node:crypto'],
    says: 'src/domain imports only itself (and packages)',
  },
  {
    file: 'src/api/planted.ts',
    fenced: ['../domain/locale', '../app/api'],
    allowed: ['./client', 'openapi-fetch'],
    says: 'src/api imports only itself (and packages)',
  },
  {
    file: 'src/i18n/planted.ts',
    fenced: ['../app/format', '../server/config'],
    allowed: ['../domain/locale', './locales/en-en.json', 'i18next'],
    says: 'src/i18n imports only src/domain (and packages)',
  },
  {
    file: 'src/statecharts/planted.ts',
    fenced: ['react', 'node:fs', '../domain/locale', '../../scripts/statecharts/graph'],
    allowed: ['xstate', 'xstate/graph', './transitions'],
    says: 'src/statecharts imports only xstate',
  },
  {
    file: 'machines/planted.machine.ts',
    fenced: ['../tests/support/fake-api', '../scripts/statecharts/graph', '../src/i18n'],
    allowed: ['../src/domain/pricing', 'xstate', './checkout.machine'],
    says: 'Machines import only xstate and src/domain.',
  },
  {
    file: 'src/app/views/Planted.tsx',
    fenced: ['../../server/merchant', '../../../scripts/statecharts/graph', '../../../tests/support/render-app', '../../../src/server/config'],
    allowed: ['../../statecharts/transitions', '../../domain/locale', '../../../machines/checkout.machine', '../components/MerchantFooter', '../format'],
    says: 'src/app imports only src/domain, src/api, src/i18n, src/statecharts and machines/ (and packages)',
  },
  {
    file: 'src/server/routes/planted.ts',
    fenced: ['../../app/format', '../../app/inspect/steps', '../../../scripts/bench/lib/report', '../../../tests/support/fake-api', '../../../machines/checkout.machine', '../../../machines/all', '../../statecharts/transitions'],
    // `../app` from routes/ is the server's own app.ts, not the SPA.
    allowed: ['../../app/entry-server', '../app', '../merchant', '../../domain/locale', '../../i18n/locales/en-en.json'],
    says: 'src/server imports only src/domain, src/api, src/i18n and, of the app, its server-render entry src/app/entry-server.tsx',
  },
  {
    file: 'src/server/flow-names.ts',
    fenced: ['./config', './routes/types', '../app/format', '../../tests/support/fake-api'],
    allowed: ['../../machines/all', '../statecharts/transitions', '../domain/flow-traffic', 'xstate/graph'],
    says: 'src/server/flow-names.ts imports only src/domain, src/statecharts and machines/',
  },
  {
    file: 'src/server/mail/planted.ts',
    fenced: ['../billing/port', '../sign-in', '../recovery', '../routes/types', '../../app/entry-server'],
    allowed: ['../db/schema', '../config', './outbox', '../../domain/locale'],
    says: 'src/server/mail imports only src/domain, src/api, src/i18n and src/server but billing/, sign-in.ts, recovery.ts and routes/',
  },
  {
    file: 'src/server/billing/whmcs/planted.ts',
    fenced: ['../local/context', '../local', '../../../app/format'],
    allowed: ['../shared/idempotency', '../port', './client', '../../db/schema', '../../../domain/order-draft'],
    says: 'src/server/billing/whmcs imports what src/server may but billing/local/',
  },
  {
    file: 'src/server/billing/local/planted.ts',
    fenced: ['../whmcs/client', '../whmcs'],
    allowed: ['../shared/payment-records', '../port', './context', '../../clock'],
    says: 'src/server/billing/local imports what src/server may but billing/whmcs/',
  },
  {
    file: 'src/server/ops/planted.ts',
    fenced: ['../routes/orders', '../billing/port', '../mail/worker', '../app', '../main', '../../app/format'],
    allowed: ['./metrics', '../payments/port', '../db/connect', '../config', '../../domain/locale', 'prom-client'],
    says: 'src/server/ops imports only src/domain and src/server but routes/, billing/, mail/, app.ts and main.ts',
  },
  {
    file: 'studio/src/live/planted.tsx',
    fenced: ['../../../scripts/statecharts/paths', '../../../src/server/merchant', '../../../tests/support/fake-api'],
    allowed: ['../../../src/statecharts/paths-figures', '../../../src/app/inspect/live-protocol', '../data'],
    says: 'studio/ imports only src/ (but src/server) and machines/ (and packages)',
  },
];

let eslint: ESLint;
// Loading the configuration and its plugins takes seconds on a busy machine: once, before the tests' own time starts.
beforeAll(async () => {
  eslint = new ESLint({ cwd: ROOT });
  await eslint.lintText('export {};\n', { filePath: `${ROOT}/src/domain/planted.ts` });
}, 60_000);

async function fenceErrors(file: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { planted } from '${specifier}';\nexport { planted };\n`, { filePath: `${ROOT}/${file}` });
  return (result?.messages ?? []).filter((message) => RULES.includes(message.ruleId ?? '')).map((message) => message.message);
}

describe('layer fences', () => {
  for (const fence of FENCES) {
    describe(fence.file, () => {
      for (const specifier of fence.fenced) {
        it(`refuses ${specifier}`, async () => {
          const errors = await fenceErrors(fence.file, specifier);
          expect(errors.length).toBeGreaterThan(0);
          for (const error of errors) expect(error).toContain(fence.says);
        });
      }
      for (const specifier of fence.allowed) {
        it(`allows ${specifier}`, async () => {
          expect(await fenceErrors(fence.file, specifier)).toEqual([]);
        });
      }
    });
  }

  it('lets a test beside shipped code import the test harness', async () => {
    expect(await fenceErrors('src/app/components/Planted.test.tsx', '../../../tests/support/render-app')).toEqual([]);
  });

  it('keeps the machines\' type-only import of the contract', async () => {
    const [result] = await eslint.lintText("import type { components } from '../src/api/schema';\nexport type Planted = components;\n", { filePath: `${ROOT}/machines/planted.machine.ts` });
    expect(result?.messages.filter((message) => RULES.includes(message.ruleId ?? ''))).toEqual([]);
  });
});
