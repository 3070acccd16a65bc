import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { attachLiveServer } from './live-server';

let server: Server;
let detach: () => void;
let port: number;

async function start() {
  server = createServer((_request, response) => response.end());
  detach = attachLiveServer(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  port = (server.address() as { port: number }).port;
}

afterEach(async () => {
  detach();
  await new Promise<void>((done) => server.close(() => done()));
});

/** Messages a socket received, kept from its first moment (a relay may send on connect). */
const inbox = new WeakMap<WebSocket, unknown[]>();

const open = (role: string, origin?: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/live?role=${role}`, origin ? { origin } : {});
    const received: unknown[] = [];
    inbox.set(socket, received);
    socket.on('message', (data) => received.push(JSON.parse(data.toString())));
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
  });

/** The socket's next message not read yet. */
async function nextMessage(socket: WebSocket): Promise<unknown> {
  const received = inbox.get(socket)!;
  while (!received.length) await new Promise((resolve) => setTimeout(resolve, 10));
  return received.shift();
}

describe('the live view relay', () => {
  it('relays an app\'s summaries to studio pages, field by field (nothing else the app sent)', async () => {
    await start();
    const studio = await open('studio', 'http://localhost:3001');
    const app = await open('app', 'http://127.0.0.1:8080');
    const received = nextMessage(studio);
    app.send(JSON.stringify({ kind: 'snapshot', machine: 'checkout', actor: 'x:1', event: 'plan.select', value: { ready: 'idle' }, stateIds: ['checkout.ready'], transitions: [], context: { email: 'someone@example.com' } }));
    expect(await received).toEqual({ kind: 'snapshot', machine: 'checkout', actor: 'x:1', event: 'plan.select', value: { ready: 'idle' }, stateIds: ['checkout.ready'], transitions: [] });
    const event = nextMessage(studio);
    app.send('not json');
    app.send(JSON.stringify({ kind: 'event', machine: 'checkout', actor: 'x:1', event: 'email.change', from: null, email: 'someone@example.com' }));
    expect(await event).toEqual({ kind: 'event', machine: 'checkout', actor: 'x:1', event: 'email.change', from: null });
    app.close();
    studio.close();
  });

  it('gives a studio page opened later each running actor\'s last state', async () => {
    await start();
    const app = await open('app');
    app.send(JSON.stringify({ kind: 'snapshot', machine: 'auth', actor: 'x:0', event: 'xstate.init', value: 'guest', stateIds: ['auth.guest'], transitions: [] }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const studio = await open('studio');
    expect(await nextMessage(studio)).toMatchObject({ machine: 'auth', stateIds: ['auth.guest'] });
    app.close();
    studio.close();
  });

  it('refuses pages from another host, an unknown role and another path', async () => {
    await start();
    await expect(open('app', 'https://evil.example')).rejects.toThrow(/403/);
    await expect(open('admin')).rejects.toThrow(/403/);
    await expect(new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/other?role=app`);
      socket.once('open', resolve);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    })).rejects.toThrow(/403/);
  });
});
