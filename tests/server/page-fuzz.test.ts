/**
 * Hostile links reach pages too: every page route × the six locale prefixes × the entry parameters (and each
 * page's own) with valid, junk and hostile values, junk cookies and headers, unknown and unclean paths, sent
 * over real HTTP to the real server process. It stays up, answers no 5xx, and every page answer is HTML (200,
 * 400 or 404) or a redirect to a path of this site. Seeded: PAGE_FUZZ_SEED repeats a run; a failure prints it.
 * PAGE_FUZZ_DIST serves another build (an older one, to see what it did).
 */
import { Agent } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildIfStale } from '../../scripts/lib/build-if-stale';
import { MAX_HEADER_BYTES } from '../../src/server/transport';
import { headBytes, probes, send, type Answer } from './page-probes';
import { ROOT, spawnServer, type ServerProcess } from './support';

const REQUESTS = 2_400;
const SEED = Number(process.env.PAGE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 4;
const workDir = mkdtempSync(join(tmpdir(), 'tvc-page-fuzz-'));
let server: ServerProcess | null = null;
beforeAll(() => {
  buildIfStale({ only: ['SPA'], prefix: '[page fuzz] ' });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

it(`stays up and answers every hostile page request with a page or a redirect (seed ${SEED})`, async () => {
  // Shedding off: this test checks the answers, not the capacity (tests/server/overload.test.ts does).
  server = await spawnServer({ DATA_DIR: join(workDir, 'data'), DIST_DIR: process.env.PAGE_FUZZ_DIST ?? join(ROOT, 'dist'), LOAD_SHEDDING: 'off' });
  await server.ready;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const all = probes(SEED, REQUESTS);
  const wrong: string[] = [];
  let next = 0;
  let followed = 0;
  const statuses = new Map<number, number>();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < all.length) {
      const probe = all[next++]!;
      const answer = await send(server!.baseUrl, agent, probe).catch((error: unknown) => ({ status: -1, contentType: String(error), location: '', bodyBytes: 0 }));
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const redirect = [301, 302, 307, 308].includes(answer.status);
      const page = [200, 400, 404].includes(answer.status) && answer.contentType.startsWith('text/html');
      // A head over Node's 16 kB is refused before any route sees it (431, in the error shape).
      const headTooLarge = answer.status === 431 && headBytes(probe) > MAX_HEADER_BYTES;
      const problems: string[] = [
        !redirect && !page && !headTooLarge && `status ${answer.status} ${answer.contentType}`,
        redirect && !/^\/(?![/\\])/.test(answer.location) && `redirect off the site: ${answer.location}`,
        probe.method === 'HEAD' && answer.bodyBytes > 0 && `HEAD with a ${answer.bodyBytes}-byte body`,
      ].filter((problem): problem is string => typeof problem === 'string');
      // A redirect ends somewhere: followed (with the same headers), it reaches a page within a few hops, never itself again.
      if (redirect && problems.length === 0) {
        const seen = new Set([probe.path]);
        let hop: Answer = answer;
        while ([301, 302, 307, 308].includes(hop.status) && !seen.has(hop.location) && seen.size < 5) {
          seen.add(hop.location);
          hop = await send(server!.baseUrl, agent, { method: 'GET', path: hop.location, headers: probe.headers }).catch((error: unknown) => ({ status: -1, contentType: String(error), location: '', bodyBytes: 0 }));
          followed += 1;
        }
        if ([301, 302, 307, 308].includes(hop.status)) problems.push(`redirect loop: ${[...seen].join(' → ').slice(0, 600)}`);
        else if (hop.status >= 500 || hop.status < 0) problems.push(`redirect to ${hop.status} ${hop.contentType}`);
      }
      if (problems.length) wrong.push(`${probe.method} ${probe.path.slice(0, 300)} ${JSON.stringify(probe.headers).slice(0, 300)}: ${problems.join(', ')}`);
    }
  }));
  agent.destroy();
  console.log(`[page fuzz] seed ${SEED}: ${all.length} requests (and ${followed} redirects followed), statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  expect(wrong.slice(0, 20), `seed ${SEED} (PAGE_FUZZ_SEED=${SEED} repeats this run)`).toEqual([]);
  expect(server.child.exitCode, `seed ${SEED}: the server process ended`).toBeNull();
  expect((await fetch(`${server.baseUrl}/checkout/api/health`)).status).toBe(200);
  expect(server.output(), `seed ${SEED}`).not.toMatch(/"level":(50|60)/);
}, 300_000);
