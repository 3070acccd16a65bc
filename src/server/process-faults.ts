/**
 * Faults of the process as a whole. A promise rejected with no handler is a bug somewhere, not a reason to
 * drop every request in flight: it is logged (type, message with query parameters redacted, stack) and
 * counted, and the server keeps serving. An uncaught exception may have left any state half-changed: it is
 * logged and the process ends with code 1, for its supervisor (systemd's Restart=on-failure) to start it again.
 */
import { logSerializers } from './log';

/** The part of a pino logger the fault handlers use (Fastify's app.log). */
export interface FaultLog {
  error(fields: object, message: string): void;
  fatal(fields: object, message: string): void;
}

let unhandledRejections = 0;

/** Unhandled promise rejections since the process started (for a later `checkout_unhandled_rejections_total`). */
export function unhandledRejectionsTotal(): number {
  return unhandledRejections;
}

/** Before the app's logger exists: one pino-shaped JSON line on stderr, the error through the same serializer. */
const earlyLog: FaultLog = {
  error: (fields, message) => console.error(JSON.stringify({ level: 50, time: Date.now(), pid: process.pid, ...serialized(fields), msg: message })),
  fatal: (fields, message) => console.error(JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, ...serialized(fields), msg: message })),
};

function serialized(fields: object): object {
  const { err, ...rest } = fields as { err?: unknown };
  return 'err' in fields ? { ...rest, err: logSerializers.err(err) } : rest;
}

export interface ProcessFaults {
  /** From now on faults go to this logger (the app's, once it is built). */
  useLog(log: FaultLog): void;
}

/**
 * Installs the process's `unhandledRejection` and `uncaughtException` handlers (once per process; main.ts
 * calls it first thing). `exit` is process.exit but for tests.
 */
export function watchProcessFaults({ exit = (code: number) => process.exit(code) }: { exit?: (code: number) => void } = {}): ProcessFaults {
  let log = earlyLog;
  process.on('unhandledRejection', (reason) => {
    unhandledRejections += 1;
    log.error({ err: reason, unhandledRejections }, 'unhandled promise rejection (a bug: logged and counted, the server keeps serving)');
  });
  process.on('uncaughtException', (error, origin) => {
    try {
      log.fatal({ err: error, origin }, 'uncaught exception: the process ends (exit code 1) for its supervisor to start it again');
    } finally {
      exit(1);
    }
  });
  return { useLog: (next) => { log = next; } };
}
