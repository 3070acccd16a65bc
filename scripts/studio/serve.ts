/**
 * `npm run studio` serves build/studio on http://localhost:3001 (STUDIO_PORT): plain static files,
 * nothing fetched from elsewhere. The live view's WebSocket (scripts/studio/live-server.ts, when
 * present) attaches to the same server, and /stats/flowStats reads a shop's traffic
 * (`npm run studio -- --stats URL`, scripts/studio/stats-proxy.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_STATS_SOURCE, proxyFlowStats, STATS_PATH, statsSourceFrom, type StatsSource } from './stats-proxy';

const ROOT = resolve(import.meta.dirname, '../..');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The file a URL path names inside `root`, or null (outside it, or missing). */
export function fileFor(root: string, urlPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split('?')[0]!);
  } catch {
    return null;
  }
  const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
  if (file !== root && !file.startsWith(root + sep)) return null;
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

export interface StudioServer {
  server: Server;
  url: string;
  close: () => Promise<void>;
}

/** Serves `root` on host:port (port 0: any free one), and the traffic of `stats` (null: none, as a static copy). */
export async function startStudioServer({
  root = join(ROOT, 'build', 'studio'),
  port = 3001,
  host = '127.0.0.1',
  stats = { url: DEFAULT_STATS_SOURCE },
}: { root?: string; port?: number; host?: string; stats?: StatsSource | null } = {}): Promise<StudioServer> {
  const folder = resolve(root);
  const server = createServer((request, response) => {
    if (stats && (request.url ?? '').split('?')[0] === STATS_PATH) {
      void proxyFlowStats(request, response, stats);
      return;
    }
    const file = request.method === 'GET' || request.method === 'HEAD' ? fileFor(folder, request.url ?? '/') : null;
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    response.end(request.method === 'HEAD' ? undefined : readFileSync(file));
  });
  // The live view's relay (another part of the studio) attaches when its module is there.
  const liveServer = join(import.meta.dirname, 'live-server.ts');
  let detachLive = () => {};
  if (existsSync(liveServer)) {
    const { attachLiveServer } = (await import(pathToFileURL(liveServer).href)) as { attachLiveServer: (server: Server) => () => void };
    detachLive = attachLiveServer(server);
  }
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ready());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    server,
    url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${actualPort}/`,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        // A browser keeps its connections (and the live view's WebSocket) open; closing must not wait for it to let go.
        detachLive();
        server.closeAllConnections();
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(ROOT, 'build', 'studio');
  if (!existsSync(join(root, 'index.html'))) {
    console.error('No studio in build/studio: run npm run studio:build first.');
    process.exit(1);
  }
  const stats = statsSourceFrom(process.argv.slice(2), process.env);
  const { url } = await startStudioServer({ root, port: Number(process.env.STUDIO_PORT ?? 3001), host: process.env.STUDIO_HOST ?? '127.0.0.1', stats });
  console.log(`flow studio on ${url} (Ctrl+C stops it); traffic from ${stats.url}/flowStats${stats.token ? ' with OPS_TOKEN' : ''}`);
}
