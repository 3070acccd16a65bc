/**
 * A clean stop of the real server (node --import tsx src/server/main.ts): on SIGTERM it says it is stopping,
 * refuses new connections, lets a request in flight finish (a POST whose body is still arriving), closes the
 * store, says it stopped and exits 0; past SHUTDOWN_DEADLINE_MS it closes what is left; a second signal ends it
 * at once. And `npm start` (package.json's start script, through npm as an operator runs it) passes SIGTERM on,
 * so stopping npm stops the server and leaves no process behind.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_SECRETS } from '../api/helper';
import { eventually, freePort, ROOT, spawnServer, type ServerProcess } from './support';

const workDir = mkdtempSync(join(tmpdir(), 'tvc-stop-'));
const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  rmSync(workDir, { recursive: true, force: true });
});

async function server(name: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const spawned = await spawnServer({ DATA_DIR: join(workDir, name), ...env });
  started.push(spawned);
  await spawned.ready;
  return spawned;
}

/** Whether a new TCP connection to the server's port is refused. */
function refused(baseUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((done) => {
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => { socket.destroy(); done(false); });
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'));
  });
}

const BODY = JSON.stringify({ email: 'drain@mail.test' });

/** A POST authMiddleware whose head and first half of the body are sent; `finish()` sends the rest and reads the answer. */
async function halfSentRequest(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  await new Promise((done) => socket.once('connect', done));
  let answer = '';
  socket.on('data', (chunk: Buffer) => { answer += chunk.toString(); });
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  socket.on('error', () => {});
  const half = Math.floor(BODY.length / 2);
  socket.write(`POST /checkout/api/authMiddleware HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, half)}`);
  return {
    closed,
    answer: () => answer,
    finish: async () => {
      socket.write(BODY.slice(half));
      await eventually(async () => expect(answer).toMatch(/\r\n\r\n[\s\S]*\}$/), 10_000, 20);
      return answer;
    },
  };
}

const lines = (output: string) => output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg: string; level: number });

describe('stopping', () => {
  it('on SIGTERM: says so, refuses new connections, finishes the request in flight, closes the store, says it stopped, exits 0', async () => {
    const app = await server('drain');
    const inFlight = await halfSentRequest(app.baseUrl);
    // The server has the request (its head logged) before the signal.
    await eventually(async () => expect(app.output()).toContain('/checkout/api/authMiddleware'), 10_000, 20);

    app.child.kill('SIGTERM');
    await eventually(async () => expect(app.output()).toMatch(/"msg":"stopping \(SIGTERM\)/), 10_000, 20);
    await eventually(async () => expect(await refused(app.baseUrl)).toBe(true), 5_000, 20);
    expect(app.child.exitCode).toBeNull();

    const answer = await inFlight.finish();
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ email: 'drain@mail.test' });

    expect(await app.exited).toBe(0);
    const messages = lines(app.output()).map((line) => line.msg);
    const stopping = messages.findIndex((msg) => msg.startsWith('stopping (SIGTERM)'));
    const completed = messages.findIndex((msg, index) => index > stopping && msg === 'request completed');
    expect(stopping).toBeGreaterThan(-1);
    expect(completed).toBeGreaterThan(stopping);
    expect(messages.at(-1)).toBe('stopped');
  }, 60_000);

  it('past SHUTDOWN_DEADLINE_MS closes the connection still open and exits 0', async () => {
    const app = await server('deadline', { SHUTDOWN_DEADLINE_MS: '1000' });
    const stuck = await halfSentRequest(app.baseUrl);
    await eventually(async () => expect(app.output()).toContain('/checkout/api/authMiddleware'), 10_000, 20);
    const signalledAt = performance.now();
    app.child.kill('SIGTERM');
    await stuck.closed;
    expect(await app.exited).toBe(0);
    const elapsed = performance.now() - signalledAt;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(8_000);
    expect(app.output()).toMatch(/stop deadline \(1 s\) passed: closing the 1 connection\(s\) still open/);
    expect(lines(app.output()).at(-1)?.msg).toBe('stopped');
  }, 60_000);

  it('a second signal while draining ends the process at once', async () => {
    const app = await server('twice');
    await halfSentRequest(app.baseUrl);
    await eventually(async () => expect(app.output()).toContain('/checkout/api/authMiddleware'), 10_000, 20);
    app.child.kill('SIGTERM');
    await eventually(async () => expect(app.output()).toMatch(/"msg":"stopping \(SIGTERM\)/), 10_000, 20);
    // Later than the same stop delivered twice (Ctrl-C under npm start): a second one.
    await new Promise((done) => setTimeout(done, 500));
    app.child.kill('SIGINT');
    expect(await app.exited).toBe(130);
    expect(app.output()).toContain('SIGINT again while stopping: exiting at once');
  }, 60_000);
});

describe('npm start', () => {
  it('passes SIGTERM on to the server: it stops cleanly, its port closes and no process is left', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseUrl, DATA_DIR: join(workDir, 'npm-start'), RATE_LIMIT: 'off', LOG_LEVEL: 'info', ...TEST_SECRETS },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    npm.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    // 'close', not 'exit': the server's last lines may still be in the pipe when npm exits.
    const npmExited = new Promise<number | string>((done) => npm.once('close', (code, signal) => done(code ?? signal ?? 'unknown')));
    try {
      // npm start builds what is stale first: a fresh checkout builds everything.
      await eventually(async () => expect(output).toMatch(/ready in \d+ ms/), 170_000, 100);
      expect((await fetch(`${baseUrl}/checkout/api/health`)).status).toBe(200);
      const serverPid = (lines(output).find((line) => /ready in/.test(line.msg)) as unknown as { pid: number }).pid;
      // The server is npm's own child (the start script execs it), not a grandchild behind a shell.
      expect(serverPid).not.toBe(npm.pid);

      npm.kill('SIGTERM');
      expect(await npmExited).toBe(0);
      expect(output).toMatch(/"msg":"stopping \(SIGTERM\)/);
      expect(lines(output).at(-1)?.msg).toBe('stopped');
      expect(await refused(baseUrl)).toBe(true);
      expect(() => process.kill(serverPid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    } finally {
      npm.kill('SIGKILL');
    }
  }, 200_000);
});
