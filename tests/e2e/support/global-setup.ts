/**
 * Before the journeys: Chromium is there (or the run fails saying how to install it), the SPA is
 * built if dist/ is missing or older than its sources, and the real server starts on a free port
 * with a fresh data directory. The returned function stops it and removes the directory.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assertChromium } from './chromium';
import { BUILD_TARGETS, buildIfStale, newestMtime } from '../../../scripts/lib/build-if-stale';
import { freePort } from '../../../scripts/lib/free-port';
import { personalDataInLog } from './log-privacy';
import { mergeLayer, startLayer } from '../../../scripts/statecharts/coverage-files';

const ROOT = resolve(import.meta.dirname, '../../..');
/**
 * The journeys run the SPA built with INSPECT=record into build/e2e-dist: the production build plus the
 * statechart inspection hook, whose steps make coverage/statecharts/browser-journeys (E2E_INSPECT=off: dist/, as npm run build makes it).
 */
export const E2E_DIST = process.env.E2E_INSPECT === 'off' ? join(ROOT, 'dist') : join(ROOT, 'build', 'e2e-dist');

/** Builds the SPA (with `env`, into `outDir`) when it is missing, older than its sources or built another way (inspect.json). */
export function buildSpaIfStale(outDir: string, env: Record<string, string>): void {
  const built = join(outDir, 'index.html');
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  const changedAt = Math.max(...BUILD_TARGETS.find((target) => target.name === 'SPA')!.sources.map((source) => newestMtime(join(ROOT, source))));
  const inspectFile = join(outDir, 'inspect.json');
  const builtMode = existsSync(inspectFile) ? (JSON.parse(readFileSync(inspectFile, 'utf8')) as { mode: string; live: string | null }) : null;
  const wantedMode = env.INSPECT ? { mode: env.INSPECT, live: env.INSPECT === 'on' ? `ws://localhost:${env.STUDIO_PORT ?? '3001'}/live` : null } : null;
  if (builtAt > changedAt && JSON.stringify(builtMode) === JSON.stringify(wantedMode)) return;
  console.log(`[e2e] building the SPA into ${outDir}${env.INSPECT ? ` with INSPECT=${env.INSPECT}` : ''} (${builtAt ? 'older than its sources or built another way' : 'none yet'})`);
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, INSPECT: '', NODE_ENV: 'production', ...env },
  });
  if (build.status !== 0) throw new Error(`[e2e] vite build failed (exit ${build.status})`);
}

function buildJourneysSpa(): void {
  // The journeys run the server from its sources (tsx): only the SPA needs a build.
  if (E2E_DIST.endsWith('e2e-dist')) buildSpaIfStale(E2E_DIST, { INSPECT: 'record' });
  else buildIfStale({ only: ['SPA'], prefix: '[e2e] ' });
}


export interface Started {
  child: ChildProcess;
  baseUrl: string;
}

/** Starts `tsx src/server/main.ts` and resolves once it logs "ready in N ms"; `env` adds to or overrides its environment. */
export async function startServer(dataDir: string, logPath: string, env: Record<string, string> = {}, port?: number): Promise<Started> {
  port ??= await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      GATEWAYS: 'sandbox-sandboxcrypto',
      // Every order and sign-in of the suite comes from 127.0.0.1.
      RATE_LIMIT: 'off',
      // A recovery reminder is due at once, so the recovery journey reads it from the demo outbox without waiting an hour.
      RECOVERY_AFTER_MIN: '0',
      FRAUD_BLOCKED_IPS: '',
      FRAUD_BLOCKED_COUNTRIES: '',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logPath);
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let output = '';
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`[e2e] the server did not log "ready in" within 60 s:\n${output.slice(-2000)}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/ready in \d+ ms/.test(output)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`[e2e] the server exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
  const health = await fetch(`${baseUrl}/checkout/api/health`);
  if (!health.ok) throw new Error(`[e2e] GET /checkout/api/health answered ${health.status}`);
  return { child, baseUrl };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  assertChromium();
  buildJourneysSpa();
  startLayer('browser-journeys');
  // Every server of the run (this one and those a journey starts itself) serves that build.
  process.env.DIST_DIR = E2E_DIST;
  // Names this run, for what its workers build once and share (the studio).
  process.env.E2E_RUN_ID = `${process.pid}-${Date.now()}`;
  const workDir = mkdtempSync(join(tmpdir(), 'tvc-e2e-'));
  const logPath = join(workDir, 'server.log');
  let started: Started | null = null;
  for (let attempt = 1; !started; attempt += 1) {
    try {
      started = await startServer(join(workDir, 'data'), logPath);
    } catch (error) {
      // A port taken between the probe and the listen: try another one.
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) {
        rmSync(workDir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  const { child, baseUrl } = started;
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  // Read by the fixtures in every worker (workers start after this and inherit the environment).
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_SERVER_LOG = logPath;
  console.log(`[e2e] server ready on ${baseUrl} (data and log in ${workDir})`);
  return async () => {
    await stop(child);
    process.off('exit', killOnExit);
    const covered = mergeLayer('browser-journeys');
    if (covered.length) console.log(`[e2e] statechart coverage of the journeys in coverage/statecharts/browser-journeys: ${covered.map((file) => `${file.machine} ${file.transitions.length} transitions`).join(', ')}`);
    // The server's log stays beside the test results (gitignored) for whoever reads a failure.
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    copyFileSync(logPath, join(ROOT, 'test-results', 'e2e-server.log'));
    const privacy = personalDataInLog(logPath);
    rmSync(workDir, { recursive: true, force: true });
    if (privacy.findings.length) throw new Error(`[e2e] the server log carries personal data:\n${privacy.findings.slice(0, 20).join('\n')}`);
    console.log(`[e2e] searched ${privacy.lines} server log lines: no e-mail, payment-link id, session cookie or password`);
  };
}
