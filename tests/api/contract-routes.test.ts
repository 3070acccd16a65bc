/**
 * openapi.yaml and what the server serves: operations.json generated from it, every schema compiling, the served set
 * of routes (nothing more, nothing less), health, the known contract gaps, and the answers every operation declares
 * before it runs. That every answer of every operation matches it: contract.test.ts.
 */
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance, type RouteHandlerMethod } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { AJV_OPTIONS, registerOperations } from '../../src/server/app';
import { OPERATIONS_FILE, operationsJson, specOperations } from '../../src/server/openapi';
import { contractOperations } from '../../src/server/operations';
import { KNOWN_CONTRACT_GAPS, operations } from './contract';
import { API_DOCS_PATH } from '../../src/server/api-docs';
import { expectError } from './error-answer';
import { Browser, createTestApp, type TestApp } from './helper';

/** The routes Fastify serves, read from printRoutes' tree (each node adds its segment to its parent's). */
function servedRoutes(app: FastifyInstance): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    if (line.trim() === '') continue;
    const node = /^((?:│ {3}| {4})*)(?:├── |└── )(.*)$/.exec(line);
    if (!node) throw new Error(`Unexpected printRoutes line: ${line}`);
    const depth = (node[1] ?? '').length / 4;
    const label = node[2] ?? '';
    const methods = / \(([A-Z, ]+)\)$/.exec(label);
    stack.length = depth;
    stack.push(methods ? label.slice(0, methods.index) : label);
    for (const method of methods?.[1]?.split(', ') ?? []) routes.push({ method, url: stack.join('') });
  }
  return routes;
}

const isApiPath = (url: string) => url.startsWith('/checkout/api/') || url.startsWith('/checkout/aff/');

// One store for the file: the served-set checks only read it.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('src/server/operations.json', () => {
  it('is what openapi.yaml gives today (run npm run gen:api when this fails)', () => {
    expect(readFileSync(OPERATIONS_FILE, 'utf8')).toBe(operationsJson());
    expect(contractOperations()).toEqual(specOperations());
  });

  // The server compiles each schema on first use (src/server/lazy-schemas.ts), so its start no longer proves they compile.
  it('has request and answer schemas that all compile with the server\'s Ajv and serializer', () => {
    const validator = AjvCompiler()({}, AJV_OPTIONS);
    const serializer = SerializerSelector()({}, {});
    let compiled = 0;
    for (const { method, url, schema } of contractOperations()) {
      for (const httpPart of ['querystring', 'params', 'headers', 'body'] as const) {
        const part = schema[httpPart];
        if (part) expect(typeof validator({ schema: part, method, url, httpPart }), `${method} ${url} ${httpPart}`).toBe('function');
        if (part) compiled += 1;
      }
      for (const [httpStatus, answer] of Object.entries(schema.response)) {
        expect(typeof serializer({ schema: answer, method, url, httpStatus }), `${method} ${url} ${httpStatus}`).toBe('function');
        compiled += 1;
      }
    }
    expect(compiled).toBeGreaterThan(contractOperations().length * 3);
  });
});

describe('the served set of routes', () => {
  it('serves every operation of openapi.yaml at its method and path', () => {
    expect(operations).toHaveLength(41);
    const missing = operations.filter((op) => !t.app.hasRoute({ method: op.method, url: op.url })).map((op) => `${op.method} ${op.path}`);
    expect(missing).toEqual([]);
  });

  it('serves nothing under /checkout/api or /checkout/aff that openapi.yaml does not describe', () => {
    const served = servedRoutes(t.app);
    // The parser reads what Fastify has: every route it finds is one Fastify answers.
    expect(served.length).toBeGreaterThan(operations.length);
    // printRoutes prints the SPA's static wildcard (/checkout/*) as a '*' under the root (which redirects to
    // /checkout/); it falls through to the 404 handler for every path with no built file (tests/api/http.test.ts).
    expect(served.filter((route) => route.url === '/*').map((route) => route.method).sort()).toEqual(['GET', 'HEAD']);
    expect(served.filter((route) => route.url === '/').map((route) => route.method).sort()).toEqual(['GET', 'HEAD']);
    expect(t.app.hasRoute({ method: 'GET', url: '/checkout/*' })).toBe(true);
    for (const route of served.filter(({ url }) => url !== '/*')) expect(t.app.hasRoute({ method: route.method as 'GET', url: route.url }), `${route.method} ${route.url}`).toBe(true);
    const spec = operations.map((op) => `${op.method} ${op.url}`).sort();
    // The API reference page (demo mode only, src/server/api-docs.ts) documents the operations and is none of them.
    expect(served.filter((route) => route.url === API_DOCS_PATH).map((route) => route.method).sort()).toEqual(['GET', 'HEAD']);
    const api = served.filter((route) => isApiPath(route.url) && route.url !== API_DOCS_PATH);
    // Fastify answers HEAD for every GET route (exposeHeadRoutes); nothing else is added.
    expect(api.filter((route) => route.method !== 'HEAD').map((route) => `${route.method} ${route.url}`).sort()).toEqual(spec);
    expect(api.filter((route) => route.method === 'HEAD').map((route) => `GET ${route.url}`).sort()).toEqual(spec.filter((entry) => entry.startsWith('GET ')));
  });

  it('refuses to start with a handler missing for an operation, or a handler for an operation the spec lacks', async () => {
    const ops = specOperations();
    const handler: RouteHandlerMethod = async () => ({});
    const all = Object.fromEntries(ops.map((op) => [op.operationId, handler]));
    const { getSession: _missing, ...withoutOne } = all;
    expect(() => registerOperations(Fastify(), ops, withoutOne)).toThrow(/Not served: getSession\. Not in the spec: none/);
    expect(() => registerOperations(Fastify(), ops, { ...all, exportCustomers: handler })).toThrow(/Not served: none\. Not in the spec: exportCustomers/);
    const app = Fastify();
    expect(() => registerOperations(app, ops, all)).not.toThrow();
    // The form-taking operation is registered in a scope of its own, there once the app is ready.
    await app.ready();
    expect(ops.filter((op) => !app.hasRoute({ method: op.method, url: op.url })).map((op) => op.operationId)).toEqual([]);
    await app.close();
  });
});

describe('health', () => {
  it('is liveness without ready, and readiness with ready=1: 200 while the store answers, 503 store_unavailable once it does not', async () => {
    const server = await createTestApp();
    const browser = new Browser(server.app);
    expect((await browser.call('health', { query: { ready: '1' } })).status).toBe(200);
    // The store goes away (closed under the app); the process still answers.
    await server.store.close();
    const notReady = await browser.call('health', { query: { ready: '1' } });
    expectError(notReady, 503, 'store_unavailable');
    expect(Number(notReady.headers['retry-after'])).toBeGreaterThan(0);
    expect((await browser.call('health')).status).toBe(200);
    await server.app.close();
  });
});

describe('known contract gaps', () => {
  it('are still undeclared in openapi.yaml (remove an entry once the contract declares it)', () => {
    for (const gap of KNOWN_CONTRACT_GAPS) {
      expect(operations.find((op) => op.operationId === gap.operationId)?.statuses, `${gap.operationId} ${gap.status}: ${gap.why}`).not.toContain(gap.status);
    }
  });
});

describe('answers the server gives before an operation runs', () => {
  it('are declared by every operation (health aside), 413 and 415 by those that take a body, 503 with Retry-After', () => {
    const undeclared = operations.filter((op) => op.operationId !== 'health').flatMap((op) => {
      const expected = ['400', '408', '431', '503', ...(op.body ? ['413', '415'] : [])];
      return expected.filter((status) => !op.statuses.includes(status)).map((status) => `${op.operationId} ${status}`);
    });
    expect(undeclared).toEqual([]);
    expect(operations.filter((op) => !op.body && op.statuses.includes('413')).map((op) => op.operationId)).toEqual([]);
    for (const op of operations.filter((candidate) => candidate.statuses.includes('503'))) {
      expect(Object.keys((op.responses['503']?.headers ?? {}) as object), op.operationId).toContain('Retry-After');
    }
  });
});
