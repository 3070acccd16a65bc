/**
 * The studio page's end of the live view: connects to the studio server's /live (the page's own
 * host) and hands each summary the running app sends to the live bus — the machine's current states
 * to highlightLive, a line per event to logLiveEvent. Reconnects while the page is open; a studio
 * published as plain files (no relay) simply shows nothing live.
 */
import { liveLogLine, parseLiveMessage } from '../../../src/app/inspect/live-protocol';
import { highlightLive, logLiveEvent } from '../live-bus';

const RETRY_MS = 2_000;

export function connectLive(url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/live?role=studio`): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const connect = () => {
    socket = new WebSocket(url);
    socket.addEventListener('message', (event: MessageEvent<string>) => {
      const message = parseLiveMessage(String(event.data));
      if (!message) return;
      if (message.kind === 'snapshot') highlightLive(message.machine, message.stateIds);
      logLiveEvent(liveLogLine(message));
    });
    socket.addEventListener('close', () => {
      if (!stopped) retry = setTimeout(connect, RETRY_MS);
    });
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    socket?.close();
  };
}

// Served by the studio server (http), not opened as a file: connect at once.
if (typeof window !== 'undefined' && window.location.protocol.startsWith('http')) connectLive();
