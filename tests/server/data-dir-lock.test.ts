import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, spawnServer, type ServerProcess } from './support';

const workDir = mkdtempSync(join(tmpdir(), 'tvc-lock-'));
const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  rmSync(workDir, { recursive: true, force: true });
});

async function server(dataDir: string): Promise<ServerProcess> {
  const spawned = await spawnServer({ DATA_DIR: dataDir });
  started.push(spawned);
  return spawned;
}

/** A pid no process has: the highest pid Linux hands out is 4194304. */
const DEAD_PID = 4_194_303;

describe('one server per data directory', () => {
  it('refuses a second server on a data directory in use, naming the running one, and frees it on a clean stop', async () => {
    const dataDir = join(workDir, 'shared');
    const first = await server(dataDir);
    await first.ready;
    expect((await fetch(`${first.baseUrl}/checkout/api/health`)).status).toBe(200);

    const refusedAt = performance.now();
    const second = await server(dataDir);
    const code = await second.exited;
    console.log(`[lock] second server refused in ${Math.round(performance.now() - refusedAt)} ms (exit ${code})`);
    expect(code).toBe(1);
    const line = second.output().trim().split('\n').find((text) => text.startsWith('TV Checkout refuses to start:'));
    expect(line).toContain(`pid ${first.child.pid}`);
    expect(line).toContain(dataDir);
    // The first one is untouched.
    expect((await fetch(`${first.baseUrl}/checkout/api/health`)).status).toBe(200);

    await first.stop();
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(false);
  }, 60_000);

  it('takes over a lock left by a process that no longer runs', async () => {
    const dataDir = join(workDir, 'stale');
    mkdirSync(dataDir);
    // What a server killed with kill -9 leaves behind, with a pid that certainly does not run.
    const lock = join(dataDir, 'server.lock');
    writeFileSync(lock, JSON.stringify({ pid: DEAD_PID, host: 'vm', startedAt: '2026-01-01T00:00:00.000Z', token: 'left-behind' }));

    const next = await server(dataDir);
    await next.ready;
    expect(next.output()).toContain(`left by pid ${DEAD_PID}`);
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(next.child.pid);
    expect((await fetch(`${next.baseUrl}/checkout/api/health`)).status).toBe(200);
  }, 60_000);

  it('lets exactly one of several processes locking one directory in the same instant have it', async () => {
    const dataDir = join(workDir, 'race');
    // Each process takes the lock, reports, and holds it until the test ends them all.
    const script = `import { lockDataDir } from './src/server/db/data-dir-lock.ts';
      try { await lockDataDir(process.argv[1], () => {}); console.log('LOCKED'); setInterval(() => {}, 1000); }
      catch (error) { console.log('REFUSED ' + error.constructor.name); process.exit(3); }`;
    const racers = Array.from({ length: 4 }, () => spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }));
    const outcomes = await Promise.all(racers.map((racer) => new Promise<string>((done) => {
      let text = '';
      racer.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (/LOCKED|REFUSED/.test(text)) done(text.trim());
      });
      racer.once('exit', () => done(text.trim() || 'exited'));
    })));
    for (const racer of racers) racer.kill('SIGKILL');
    expect(outcomes.filter((outcome) => outcome === 'LOCKED')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'REFUSED ConfigError')).toHaveLength(3);
  }, 60_000);
});
