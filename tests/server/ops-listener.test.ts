/**
 * The real server (node --import tsx src/server/main.ts) with OPS_PORT: the operator listener answers /metrics and
 * /flowStats beside the shop's port, which does not; SIGTERM closes both and the process exits 0. The demo without
 * OPS_PORT tries 127.0.0.1:9464 and starts without it when the port is taken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, type ServerProcess } from './support';

const workDir = mkdtempSync(join(tmpdir(), 'tvc-ops-'));
const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  rmSync(workDir, { recursive: true, force: true });
});

describe('the operator listener of a started server', () => {
  it('serves /metrics on OPS_PORT, not on PORT, and closes with the server on SIGTERM', async () => {
    const opsPort = await freePort();
    const server = await spawnServer({ DATA_DIR: join(workDir, 'data'), OPS_PORT: String(opsPort) });
    started.push(server);
    await server.ready;
    const health = await fetch(`${server.baseUrl}/checkout/api/health`);
    expect(health.status).toBe(200);
    const scrape = await fetch(`http://127.0.0.1:${opsPort}/metrics`);
    expect(scrape.status).toBe(200);
    const text = await scrape.text();
    expect(text).toMatch(/^http_request_duration_seconds_count\{operation="health",method="GET",status="2xx"\} 1$/m);
    expect(text).toMatch(/^checkout_build_info\{version="0\.1\.0",commit="([0-9a-f]{40}|unknown)"\} 1$/m);
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(404);
    const stats = await fetch(`http://127.0.0.1:${opsPort}/flowStats?from=2026-01-01&to=2026-01-31`);
    expect(stats.status).toBe(200);
    expect(await stats.json()).toEqual({ from: '2026-01-01', to: '2026-01-31', minCount: 5, machines: [], funnel: { by: 'day', locale: null, gateway: null, locales: [], gateways: [], rows: [] } });
    expect(server.output()).toContain(`operator listener on http://127.0.0.1:${opsPort}/metrics`);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${opsPort}/metrics`)).rejects.toThrow();
  });
});

describe('the demo without OPS_PORT', () => {
  it('starts and serves the shop when 127.0.0.1:9464 is taken, saying so', async () => {
    // Held by this test, or already by another process on the machine: taken either way.
    const holder: Server = createServer();
    await new Promise<void>((resolve) => {
      holder.once('error', () => resolve());
      holder.listen(9464, '127.0.0.1', () => resolve());
    });
    try {
      const server = await spawnServer({ DATA_DIR: join(workDir, 'demo-data') });
      started.push(server);
      await server.ready;
      expect((await fetch(`${server.baseUrl}/checkout/api/health`)).status).toBe(200);
      expect(server.output()).toContain('operator listener not opened: 127.0.0.1:9464 is not free');
    } finally {
      holder.close();
    }
  });
});
