/**
 * Flow traffic through the real routes (issue 29): a batch posted to /flowEvents read back through /flowStats on the
 * operator listener over real HTTP, masked under FLOW_MIN_COUNT; nothing of a visitor kept; Sec-GPC, DNT and
 * FLOW_ANALYTICS=off counting nothing; names the machines do not have dropped; instances on one store adding up.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { FlowBatch, FlowStats } from '../../src/domain/flow-traffic';
import { startOpsListener, type OpsListener } from '../../src/server/ops/listener';
import { expectError } from './error-answer';
import { Browser, createTestApp, createTwoInstances, rows, type TestApp } from './helper';

const NOW = new Date('2026-03-14T23:30:00Z');
const clock = { now: () => NOW };
const READY = 'checkout.loading → checkout.ready on always [catalogueLoaded]';
/** Zero under FLOW_MIN_COUNT=1: fewer than the threshold, so shown as such. */
const NONE = { fewerThan: 1 };

/** A visit that opened the shop page, saw it ready, chose nothing and left it there; an INP of 48 ms and an LCP of 1800 ms. */
const VISIT: FlowBatch = {
  locale: 'de-de',
  gateway: 'sandbox',
  steps: [
    { machine: 'checkout', transitions: [], entered: ['checkout', 'checkout.loading'], exited: [] },
    { machine: 'checkout', transitions: [{ source: 'checkout.loading', event: 'always', targets: ['checkout.ready'], guard: 'catalogueLoaded' }], entered: ['checkout.ready'], exited: ['checkout.loading'] },
  ],
  vitals: [
    { machine: 'checkout', state: 'checkout.ready', metric: 'INP', value: 48 },
    { machine: 'checkout', state: 'checkout.loading', metric: 'LCP', value: 1800 },
  ],
  ended: [{ machine: 'checkout', states: ['checkout.ready'] }],
};

const FLOW_TABLES = ['flow_transitions', 'flow_states', 'flow_vitals', 'flow_funnel'];

let opened: { t: TestApp; ops: OpsListener | null }[] = [];
afterEach(async () => {
  for (const { t, ops } of opened) {
    await ops?.close();
    await t.close();
  }
  opened = [];
});

async function shop(env: Record<string, string> = {}, listener = false, logStream?: { write(line: string): void }): Promise<{ t: TestApp; ops: OpsListener | null }> {
  const t = await createTestApp({ LOG_LEVEL: 'info', ...env }, { ports: { clock }, ...(logStream ? { logStream } : {}) });
  const ops = listener && t.app.metrics ? await startOpsListener({ port: 0, host: '127.0.0.1', token: null }, t.app.metrics.registry, t.app.log, t.app.flowStats) : null;
  opened.push({ t, ops });
  return { t, ops };
}

const report = (browser: Browser, batch: unknown, headers: Record<string, string> = {}) => browser.request({ method: 'POST', url: '/checkout/api/flowEvents', json: batch, headers });

async function flowStats(ops: OpsListener | null, query = 'from=2026-03-01&to=2026-03-31'): Promise<{ status: number; body: FlowStats & { error?: { code: string } } }> {
  if (!ops) throw new Error('The shop was started without its operator listener');
  const answer = await fetch(`http://127.0.0.1:${ops.address.port}/flowStats?${query}`);
  return { status: answer.status, body: await answer.json() as FlowStats & { error?: { code: string } } };
}

/** Every row of every flow table and every rate counter, as text. */
async function storedText(t: TestApp): Promise<string> {
  const tables = await Promise.all([...FLOW_TABLES, 'rate_counters'].map((table) => rows(t.db, sql.raw(`select * from ${table}`))));
  return JSON.stringify(tables);
}

const flowRows = async (t: TestApp) => (await Promise.all(FLOW_TABLES.map((table) => rows(t.db, sql.raw(`select * from ${table}`))))).flat().length;

describe('POST /flowEvents read back through GET /flowStats', () => {
  it('counts a visit by its machines\' names, for the UTC day of the server\'s clock (FLOW_MIN_COUNT=1)', async () => {
    const { t, ops } = await shop({ FLOW_MIN_COUNT: '1', OPS_PORT: '0' }, true);
    expect((await report(new Browser(t.app), VISIT)).status).toBe(204);
    const { status, body } = await flowStats(ops);
    expect(status).toBe(200);
    expect(body).toMatchObject({ from: '2026-03-01', to: '2026-03-31', minCount: 1 });
    expect(body.machines).toEqual([{
      machine: 'checkout',
      visits: 1,
      transitions: [{ transition: READY, count: 1 }],
      states: [
        { state: 'checkout', entries: 1, exits: NONE, ended: NONE, endedShare: null, inpP75: null, lcpP75: null, inpSamples: NONE, lcpSamples: NONE },
        { state: 'checkout.loading', entries: 1, exits: 1, ended: NONE, endedShare: null, inpP75: null, lcpP75: 2000, inpSamples: NONE, lcpSamples: 1 },
        { state: 'checkout.ready', entries: 1, exits: NONE, ended: 1, endedShare: 1, inpP75: 50, lcpP75: null, inpSamples: 1, lcpSamples: NONE },
      ],
    }]);
    expect(body.funnel).toEqual({ by: 'day', locale: null, gateway: null, locales: ['de-de'], gateways: ['sandbox'], rows: [{ period: '2026-03-14', step: 'index', count: 1 }] });
    expect((await flowStats(ops, 'from=2026-03-15&to=2026-03-20')).body.machines).toEqual([]);
  });

  it('shows a count under the default threshold only as fewer than 5, and no p75', async () => {
    const { t, ops } = await shop({ OPS_PORT: '0' }, true);
    await report(new Browser(t.app), VISIT);
    const { body } = await flowStats(ops);
    const few = { fewerThan: 5 };
    expect(body.minCount).toBe(5);
    expect(body.machines[0]).toMatchObject({ machine: 'checkout', visits: few, transitions: [{ transition: READY, count: few }] });
    expect(body.machines[0]?.states.find((state) => state.state === 'checkout.ready')).toEqual({
      state: 'checkout.ready', entries: few, exits: few, ended: few, endedShare: null, inpP75: null, lcpP75: null, inpSamples: few, lcpSamples: few,
    });
    expect(body.funnel.rows).toEqual([{ period: '2026-03-14', step: 'index', count: few }]);
  });

  it('sums the funnel by ISO week (named by its Monday) and filters it by locale and gateway', async () => {
    const { t, ops } = await shop({ FLOW_MIN_COUNT: '1', OPS_PORT: '0' }, true);
    await report(new Browser(t.app), VISIT);
    await report(new Browser(t.app), { ...VISIT, locale: 'en-gb', gateway: 'unknownpay' });
    expect((await flowStats(ops, 'from=2026-03-01&to=2026-03-31&by=week')).body.funnel.rows).toEqual([{ period: '2026-03-09', step: 'index', count: 2 }]);
    const german = (await flowStats(ops, 'from=2026-03-01&to=2026-03-31&locale=de-de')).body.funnel;
    expect(german).toMatchObject({ locale: 'de-de', locales: ['de-de', 'en-gb'], gateways: ['', 'sandbox'], rows: [{ period: '2026-03-14', step: 'index', count: 1 }] });
    expect((await flowStats(ops, 'from=2026-03-01&to=2026-03-31&gateway=sandbox')).body.funnel.rows).toEqual([{ period: '2026-03-14', step: 'index', count: 1 }]);
  });

  it('answers 400 in the one error shape for a range or a parameter it cannot read', async () => {
    const { ops } = await shop({ OPS_PORT: '0' }, true);
    for (const query of ['from=2026-02-30', 'from=2026-03-10&to=2026-03-01', 'by=month', 'locale=fr-fr', 'visitor=1', 'from=2020-01-01&to=2026-03-01']) {
      const { status, body } = await flowStats(ops, query);
      expect(status, query).toBe(400);
      expect(body).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    }
    const defaults = await flowStats(ops, '');
    expect(defaults.body).toMatchObject({ from: '2026-02-13', to: '2026-03-14' });
  });
});

describe('what POST /flowEvents keeps', () => {
  it('keeps no e-mail, promo code, order id or address sent in a batch\'s names or around it, in no flow table, no rate counter and no log line', async () => {
    const logged: string[] = [];
    const { t } = await shop({ FLOW_MIN_COUNT: '1', TRUST_PROXY: '10.0.0.0/8' }, false, { write: (line) => { logged.push(line); } });
    const secrets = ['jane.doe.private', 'WELCOME10', 'order-98765', '203.0.113.77', '10.1.2.3'];
    const carrying: FlowBatch = {
      ...VISIT,
      steps: [...VISIT.steps, {
        machine: 'checkout',
        transitions: [{ source: 'checkout.ready', event: 'promo.apply.WELCOME10', targets: ['checkout.ready.order-98765'], guard: 'jane.doe.private' }],
        entered: ['checkout.ready.order-98765', 'jane.doe.private'], exited: ['WELCOME10'],
      }],
      vitals: [...VISIT.vitals, { machine: 'checkout', state: 'order-98765', metric: 'INP', value: 10 }],
      ended: [{ machine: 'jane.doe.private', states: ['WELCOME10'] }],
    };
    const around = { 'x-forwarded-for': '203.0.113.77', referer: 'http://localhost:3000/checkout/?email=jane.doe.private%40example.com&promocode=WELCOME10&orderid=order-98765' };
    expect((await report(new Browser(t.app, '10.1.2.3'), carrying, around)).status).toBe(204);
    const withAt = await report(new Browser(t.app, '10.1.2.3'), { ...VISIT, ended: [{ machine: 'checkout', states: ['jane.doe@example.com'] }] }, around);
    expectError(withAt, 400, 'bad_request');
    const stored = await storedText(t);
    expect(stored).toContain(READY);
    for (const secret of [...secrets, 'jane.doe@example.com']) expect(stored).not.toContain(secret);
    expect(logged.join('')).toContain('/checkout/api/flowEvents');
    for (const secret of [...secrets, 'jane.doe@example.com']) expect(logged.join(''), secret).not.toContain(secret);
  });

  it('stores nothing for a visitor who sends Sec-GPC: 1 or DNT: 1, and answers 204 all the same', async () => {
    const { t } = await shop({ FLOW_MIN_COUNT: '1' });
    expect((await report(new Browser(t.app), VISIT, { 'sec-gpc': '1' })).status).toBe(204);
    expect((await report(new Browser(t.app), VISIT, { dnt: '1' })).status).toBe(204);
    expect(await flowRows(t)).toBe(0);
    expect((await report(new Browser(t.app), VISIT, { dnt: '0' })).status).toBe(204);
    expect(await flowRows(t)).toBeGreaterThan(0);
  });

  it('stores nothing with FLOW_ANALYTICS=off, and answers 204 all the same', async () => {
    const { t } = await shop({ FLOW_ANALYTICS: 'off' });
    expect((await report(new Browser(t.app), VISIT)).status).toBe(204);
    expect(await flowRows(t)).toBe(0);
  });

  it('refuses a batch over 16 kB with 413 and one over maxItems with 400, in the one error shape, storing nothing', async () => {
    const { t } = await shop({ FLOW_MIN_COUNT: '1' });
    const large = { ...VISIT, ended: [{ machine: 'checkout', states: ['checkout.ready'] }], steps: Array.from({ length: 150 }, () => VISIT.steps[1]) };
    expect(JSON.stringify(large).length).toBeGreaterThan(16_384);
    expectError(await report(new Browser(t.app), large), 413, 'payload_too_large');
    const tooMany = { ...VISIT, ended: Array.from({ length: 21 }, () => ({ machine: 'auth', states: [] })) };
    expect(JSON.stringify(tooMany).length).toBeLessThan(16_384);
    expectError(await report(new Browser(t.app), tooMany), 400, 'bad_request');
    expect(await flowRows(t)).toBe(0);
  });

  it('drops machines, states and transitions the machines do not have, keeping the rest of the batch', async () => {
    const { t, ops } = await shop({ FLOW_MIN_COUNT: '1', OPS_PORT: '0' }, true);
    const unknown: FlowBatch = {
      locale: 'en-en',
      steps: [
        { machine: 'basket', transitions: [], entered: ['basket'], exited: [] },
        { machine: 'checkout', transitions: [], entered: ['checkout', 'checkout.basket'], exited: [] },
        { machine: 'checkout', transitions: [
          { source: 'checkout.loading', event: 'always', targets: ['checkout.ready'], guard: 'somethingElse' },
          { source: 'checkout.loading', event: 'always', targets: ['checkout.notFound'], guard: 'catalogueLoaded' },
          { source: 'checkout.loading', event: 'plan.select', targets: ['checkout.ready'] },
        ], entered: [], exited: [] },
      ],
      vitals: [{ machine: 'checkout', state: 'checkout.basket', metric: 'INP', value: 80 }],
      ended: [{ machine: 'basket', states: ['basket'] }, { machine: 'checkout', states: ['checkout.basket'] }],
    };
    expect((await report(new Browser(t.app), unknown)).status).toBe(204);
    expect((await flowStats(ops)).body.machines).toEqual([{
      machine: 'checkout', visits: 1, transitions: [],
      states: [{ state: 'checkout', entries: 1, exits: NONE, ended: NONE, endedShare: null, inpP75: null, lcpP75: null, inpSamples: NONE, lcpSamples: NONE }],
    }]);
    expect(await storedText(t)).not.toContain('basket');
  });
});

describe('flow traffic over several instances on one store', () => {
  it('adds two batches posted to two app instances', async () => {
    const t = await createTwoInstances({ FLOW_MIN_COUNT: '1', OPS_PORT: '0' }, { clock });
    const ops = await startOpsListener({ port: 0, host: '127.0.0.1', token: null }, t.app.metrics!.registry, t.app.log, t.app.flowStats);
    opened.push({ t, ops });
    expect((await report(new Browser(t.app), VISIT)).status).toBe(204);
    expect((await report(new Browser(t.second), VISIT)).status).toBe(204);
    const { body } = await flowStats(ops);
    expect(body.machines[0]).toMatchObject({ machine: 'checkout', visits: 2, transitions: [{ transition: READY, count: 2 }] });
    expect(body.funnel.rows).toEqual([{ period: '2026-03-14', step: 'index', count: 2 }]);
  });
});

describe('checkout_flow_transitions_total', () => {
  it('appears once a transition\'s total over all days reaches FLOW_MIN_COUNT, and not before', async () => {
    const { t, ops } = await shop({ FLOW_MIN_COUNT: '2', OPS_PORT: '0' }, true);
    const series = async () => (await (await fetch(`http://127.0.0.1:${ops!.address.port}/metrics`)).text()).split('\n').filter((line) => line.startsWith('checkout_flow_transitions_total{'));
    await report(new Browser(t.app), VISIT);
    expect(await series()).toEqual([]);
    await report(new Browser(t.app), VISIT);
    expect(await series()).toEqual([`checkout_flow_transitions_total{machine="checkout",transition="${READY}"} 2`]);
  });
});
