import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStudioServer, type StudioServer } from './serve';
import { statsSourceFrom } from './stats-proxy';

/** A stand-in for a shop's operator listener: answers every request with `status` and `body`, and keeps what it was asked. */
async function operatorListener(status: number, body: string) {
  const asked: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((request, response) => {
    asked.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, asked, close: () => new Promise<void>((done) => server.close(() => done())) };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function studioReading(source: { url: string; token?: string }): Promise<StudioServer> {
  const studio = await startStudioServer({ root: mkdtempSync(join(tmpdir(), 'studio-')), port: 0, stats: source });
  closers.push(studio.close);
  return studio;
}

const STATS = { from: '2026-11-21', to: '2026-11-27', minCount: 5, machines: [], funnel: { by: 'day', locale: null, gateway: null, locales: [], gateways: [], rows: [] } };

describe('the studio\'s traffic proxy', () => {
  it('passes GET /stats/flowStats with its query to the listener\'s /flowStats, adding the bearer token, and hands back its JSON without the token', async () => {
    const listener = await operatorListener(200, JSON.stringify(STATS));
    closers.push(listener.close);
    const studio = await studioReading({ url: listener.url, token: 'ops-secret-42' });
    const response = await fetch(`${studio.url}stats/flowStats?from=2026-11-21&to=2026-11-27&by=week&locale=de-de&gateway=sandbox`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual(STATS);
    expect(text).not.toContain('ops-secret-42');
    expect([...response.headers.values()].join(' ')).not.toContain('ops-secret-42');
    expect(listener.asked).toHaveLength(1);
    expect(listener.asked[0]!.url).toBe('/flowStats?from=2026-11-21&to=2026-11-27&by=week&locale=de-de&gateway=sandbox');
    expect(listener.asked[0]!.headers.authorization).toBe('Bearer ops-secret-42');
  });

  it('sends no Authorization header when the studio has no token (a loopback listener needs none)', async () => {
    const listener = await operatorListener(200, JSON.stringify(STATS));
    closers.push(listener.close);
    const studio = await studioReading({ url: listener.url });
    expect((await fetch(`${studio.url}stats/flowStats`)).status).toBe(200);
    expect(listener.asked[0]!.url).toBe('/flowStats');
    expect(listener.asked[0]!.headers.authorization).toBeUndefined();
  });

  it('says plainly that the shop refused the studio and that OPS_TOKEN is the way in, on a 401', async () => {
    const listener = await operatorListener(401, JSON.stringify({ error: { code: 'unauthorized', message: 'Unauthorized' } }));
    closers.push(listener.close);
    const studio = await studioReading({ url: listener.url });
    const response = await fetch(`${studio.url}stats/flowStats?from=2026-11-21&to=2026-11-27`);
    expect(response.status).toBe(502);
    const { error } = (await response.json()) as { error: { code: string; message: string; source: string } };
    expect(error.code).toBe('refused');
    expect(error.source).toBe(listener.url);
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('OPS_TOKEN');
  });

  it('says that no shop answers, and how to start one, when nothing listens at the source', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const gone = await operatorListener(200, '{}');
    await gone.close();
    const studio = await studioReading({ url: gone.url });
    const response = await fetch(`${studio.url}stats/flowStats?from=2026-11-21&to=2026-11-27`);
    expect(response.status).toBe(502);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('unreachable');
    expect(error.message).toContain(`No shop answers at ${gone.url}`);
    expect(error.message).toContain('npm start');
    expect(error.message).toContain('npm run studio -- --stats URL');
  });

  it('a studio served without its traffic source answers /stats/flowStats with 404, like any static copy', async () => {
    const studio = await startStudioServer({ root: mkdtempSync(join(tmpdir(), 'studio-')), port: 0, stats: null });
    closers.push(studio.close);
    expect((await fetch(`${studio.url}stats/flowStats`)).status).toBe(404);
  });
});

describe('npm run studio -- --stats URL', () => {
  it('reads the URL and OPS_TOKEN; without --stats, the demo\'s listener on 127.0.0.1:9464', () => {
    expect(statsSourceFrom(['--stats', 'https://shop.example:9464/'], { OPS_TOKEN: 't0ken' })).toEqual({ url: 'https://shop.example:9464', token: 't0ken' });
    expect(statsSourceFrom(['--stats=http://10.0.0.5:9464'], {})).toEqual({ url: 'http://10.0.0.5:9464' });
    expect(statsSourceFrom([], {})).toEqual({ url: 'http://127.0.0.1:9464' });
    expect(() => statsSourceFrom(['--stats', 'shop.example'], {})).toThrow(/operator listener's URL/);
  });
});
