/**
 * A reverse proxy in front of the shop that keeps the bodies POSTed to one path and answers them 204 itself.
 * Beacons sent as a page is left come from a document Playwright and the DevTools protocol no longer follow;
 * on the wire, as the shop's server would get them, they are still seen.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedPost {
  headers: IncomingHttpHeaders;
  body: string;
}

export async function startRecordingProxy(target: string, recordedPath: string): Promise<{ origin: string; recorded: RecordedPost[]; close: () => Promise<void> }> {
  const recorded: RecordedPost[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      if (incoming.method === 'POST' && incoming.url === recordedPath) {
        recorded.push({ headers: incoming.headers, body: body.toString('utf8') });
        outgoing.writeHead(204).end();
        return;
      }
      const upstream = request(new URL(incoming.url ?? '/', target), { method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      upstream.on('error', () => outgoing.writeHead(502).end());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    recorded,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
