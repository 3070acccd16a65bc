/**
 * A clean stop on SIGTERM (systemd, docker, a supervisor) and SIGINT (Ctrl-C): say so, take no new
 * connection, let the requests in flight finish up to a deadline (then close what is left), stop the workers
 * (their onClose hooks), close the store (PGlite writes its shutdown checkpoint: the next start replays
 * nothing), say so, exit 0. A second signal while draining ends the process at once (128 + its number).
 */
import { constants } from 'node:os';
import type { FastifyInstance } from 'fastify';

export interface StopOptions {
  app: FastifyInstance;
  closeStore: () => Promise<void>;
  /** How long requests in flight may take to finish before their connections are closed. */
  deadlineMs: number;
  exit?: (code: number) => void;
}

/** How often connections that finished their request while draining are closed (a keep-alive one would wait for its timeout). */
const IDLE_SWEEP_MS = 100;
/**
 * A signal this soon after the first is the same stop, not a second one: Ctrl-C under `npm start` reaches the
 * server twice at once (from the terminal, to the whole process group, and forwarded by npm).
 */
export const SAME_STOP_MS = 250;

export function stopOnSignals({ app, closeStore, deadlineMs, exit = (code) => process.exit(code) }: StopOptions): void {
  let stopping = false;
  let firstAt = 0;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping && performance.now() - firstAt < SAME_STOP_MS) return;
    if (stopping) {
      app.log.warn({ signal }, `${signal} again while stopping: exiting at once`);
      exit(128 + (constants.signals[signal] ?? 0));
      return;
    }
    stopping = true;
    firstAt = performance.now();
    const startedAt = firstAt;
    app.log.info({ signal, deadlineMs }, `stopping (${signal}): no new connections; requests in flight may finish within ${deadlineMs / 1000} s`);
    const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    const deadline = setTimeout(() => {
      app.server.getConnections((_error, count) => {
        app.log.warn({ connections: count }, `stop deadline (${deadlineMs / 1000} s) passed: closing the ${count} connection(s) still open`);
        app.server.closeAllConnections();
      });
    }, deadlineMs);
    void (async () => {
      try {
        // Stops listening, waits for the connections, then runs the onClose hooks (mail worker, billing).
        await app.close();
        clearInterval(sweep);
        clearTimeout(deadline);
        await closeStore();
        app.log.info({ ms: Math.round(performance.now() - startedAt) }, 'stopped');
        exit(0);
      } catch (error) {
        app.log.error({ err: error }, 'the stop failed');
        exit(1);
      }
    })();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
