/**
 * Load shedding in the real server: a flood of store-backed requests raises its event-loop delay past a low
 * threshold set by env; it then answers 503 overloaded with Retry-After at once while health still answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { afterAll, expect, it } from 'vitest';
import { eventually, spawnServer, type ServerProcess } from './support';

const workDir = mkdtempSync(join(tmpdir(), 'tvc-overload-'));
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

const identify = (baseUrl: string) => fetch(`${baseUrl}/checkout/api/authMiddleware`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'load@example.com' }),
});

it('sheds load with 503 overloaded and Retry-After past the event-loop delay threshold, while health answers', async () => {
  server = await spawnServer({ DATA_DIR: join(workDir, 'data'), LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '50' });
  await server.ready;
  const { baseUrl } = server;
  expect((await identify(baseUrl)).status).toBe(200);

  let flooding = true;
  const flood = autocannon({
    url: `${baseUrl}/checkout/api/authMiddleware`, method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'load@example.com' }), connections: 150, duration: 4,
  });
  const healthStatuses: number[] = [];
  const shed: { status: number; retryAfter: string | null; body: unknown }[] = [];
  const probes = (async () => {
    while (flooding) {
      const [live, ready, call] = await Promise.all([
        fetch(`${baseUrl}/checkout/api/health`), fetch(`${baseUrl}/checkout/api/health?ready=1`), identify(baseUrl),
      ]);
      healthStatuses.push(live.status, ready.status);
      if (call.status !== 200) shed.push({ status: call.status, retryAfter: call.headers.get('retry-after'), body: await call.json() });
      else await call.arrayBuffer();
      await new Promise((done) => setTimeout(done, 100));
    }
  })();
  const result = await flood;
  flooding = false;
  await probes;
  console.log(`[overload] 150 connections for 4 s: ${result['2xx']} answered 2xx, ${result.non2xx} shed (503), p99 ${result.latency.p99} ms; health probes ${healthStatuses.length}, all 200: ${healthStatuses.every((status) => status === 200)}`);

  expect(result.non2xx).toBeGreaterThan(0);
  expect(shed.length).toBeGreaterThan(0);
  for (const answer of shed) {
    expect(answer.status).toBe(503);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(answer.body).toEqual({ error: { code: 'overloaded', message: expect.any(String) } });
  }
  expect(healthStatuses.length).toBeGreaterThan(0);
  expect(healthStatuses.every((status) => status === 200)).toBe(true);
  // Once the flood is over, requests are served again.
  await eventually(async () => expect((await identify(baseUrl)).status).toBe(200), 10_000, 200);
});
