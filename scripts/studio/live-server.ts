/**
 * The live view's relay on the studio's own server: the checkout built with INSPECT=on connects to
 * ws://localhost:STUDIO_PORT/live?role=app and sends summaries of its actors' steps; studio pages
 * connect with ?role=studio and receive them. Only pages on this machine (a loopback Origin) may
 * connect, only well-formed summaries are relayed (re-built field by field: no context slips through),
 * and a studio page opened later gets each running actor's last state first.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseLiveMessage, type LiveMessage, type LiveRole, type LiveSnapshot } from '../../src/app/inspect/live-protocol';

export const LIVE_PATH = '/live';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A browser page on this machine (or a client that sends no Origin, like a test's). */
export function isLocalOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    return LOOPBACK.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** Only the summary's own fields, whatever else a client sent. */
function summary(message: LiveMessage): LiveMessage {
  if (message.kind === 'event') return { kind: 'event', machine: message.machine, actor: message.actor, event: message.event, from: typeof message.from === 'string' ? message.from : null };
  return {
    kind: 'snapshot', machine: message.machine, actor: message.actor, event: message.event, value: message.value,
    stateIds: message.stateIds.filter((id) => typeof id === 'string'), transitions: (message.transitions ?? []).filter((label) => typeof label === 'string'),
  };
}

/** Adds the /live WebSocket to the studio's HTTP server; returns a function that closes every connection. */
export function attachLiveServer(server: Server): () => void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const studios = new Set<WebSocket>();
  /** The last state of each actor of each app connection, replayed to a studio page that connects later. */
  const lastStates = new Map<WebSocket, Map<string, LiveSnapshot>>();

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const role = url.searchParams.get('role') as LiveRole | null;
    if (url.pathname !== LIVE_PATH || (role !== 'app' && role !== 'studio') || !isLocalOrigin(request.headers.origin)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => (role === 'app' ? acceptApp(ws) : acceptStudio(ws)));
  });

  function acceptStudio(ws: WebSocket) {
    studios.add(ws);
    ws.on('close', () => studios.delete(ws));
    for (const states of lastStates.values()) for (const snapshot of states.values()) ws.send(JSON.stringify(snapshot));
  }

  function acceptApp(ws: WebSocket) {
    const states = new Map<string, LiveSnapshot>();
    lastStates.set(ws, states);
    ws.on('close', () => lastStates.delete(ws));
    ws.on('message', (data) => {
      const parsed = parseLiveMessage(data.toString());
      if (!parsed) return;
      const message = summary(parsed);
      if (message.kind === 'snapshot') states.set(message.actor, message);
      const text = JSON.stringify(message);
      for (const studio of studios) studio.send(text);
    });
  }

  return () => {
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  };
}
