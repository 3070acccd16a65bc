/**
 * Process-level faults in the real server (node --import tsx src/server/main.ts), provoked by a preload
 * (tests/server/preload/*.mjs) on SIGUSR2 once the server answers: an unhandled rejection is logged through
 * the app's logger and counted while the server keeps serving; an uncaught exception is logged and ends the
 * process with code 1 (for systemd's Restart=on-failure).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, spawnServer, type ServerProcess } from './support';

const workDir = mkdtempSync(join(tmpdir(), 'tvc-faults-'));
const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  rmSync(workDir, { recursive: true, force: true });
});

async function serverWith(preload: string, dataDir: string): Promise<ServerProcess> {
  const server = await spawnServer({ DATA_DIR: join(workDir, dataDir) }, ['--import', `./tests/server/preload/${preload}`]);
  started.push(server);
  await server.ready;
  return server;
}

/** The JSON log lines whose msg matches. */
const linesMatching = (output: string, msg: RegExp) => output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => msg.test(String(line.msg)));

describe('process-level faults', () => {
  it('logs an unhandled rejection with its stack, counts it, and keeps serving', async () => {
    const server = await serverWith('reject-on-usr2.mjs', 'rejection');
    server.child.kill('SIGUSR2');
    const [first] = await eventually(async () => {
      const lines = linesMatching(server.output(), /^unhandled promise rejection/);
      expect(lines).toHaveLength(1);
      return lines;
    }, 10_000);
    expect(first).toMatchObject({ level: 50, unhandledRejections: 1, err: { type: 'Error', message: 'preloaded rejection nobody handles' } });
    expect(String((first?.err as { stack: string }).stack)).toContain('reject-on-usr2.mjs');
    // Through the app's logger: the same pid and hostname fields as its request lines.
    expect(first).toHaveProperty('hostname');

    server.child.kill('SIGUSR2');
    await eventually(async () => expect(linesMatching(server.output(), /^unhandled promise rejection/).map((line) => line.unhandledRejections)).toEqual([1, 2]), 10_000);
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${server.baseUrl}/checkout/api/health`)).status).toBe(200);
  }, 60_000);

  it('logs an uncaught exception with its stack and ends the process with code 1', async () => {
    const server = await serverWith('throw-on-usr2.mjs', 'exception');
    server.child.kill('SIGUSR2');
    expect(await server.exited).toBe(1);
    const [fatal] = linesMatching(server.output(), /^uncaught exception/);
    expect(fatal).toMatchObject({ level: 60, err: { type: 'Error', message: 'preloaded boom' } });
    expect(String((fatal?.err as { stack: string }).stack)).toContain('throw-on-usr2.mjs');
    await expect(fetch(`${server.baseUrl}/checkout/api/health`)).rejects.toThrow();
  }, 60_000);
});
