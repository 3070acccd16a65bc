/**
 * Orders per second with tracing off and on, side by side: two servers on the embedded store, one with
 * OTEL_EXPORTER_OTLP_ENDPOINT naming a receiver in this process that takes every export and drops it, loaded in
 * turn (off, on, off, on, …) so both meet the same moments of the machine.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { orderLoad, type LoadFigures } from './load';
import { startServer, type ServerHandle } from './lib/proc';

export interface TracingRound {
  off: LoadFigures;
  on: LoadFigures;
}

export interface TracingFigures {
  rounds: TracingRound[];
  /** Orders per second over all rounds (2xx answers over the time they took). */
  offRate: number;
  onRate: number;
  /** Export requests and their bytes the receiver took from the traced server. */
  exports: number;
  exportBytes: number;
}

export interface TracingOptions {
  entry: string[];
  workDir: string;
  orders: number;
  connections: number;
  rounds: number;
  log: (line: string) => void;
}

/** An OTLP/HTTP endpoint that answers every export 200 and keeps nothing but counts. */
async function droppingReceiver() {
  const counts = { exports: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => { counts.bytes += chunk.length; });
    request.on('end', () => {
      counts.exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, counts, close: () => new Promise<void>((done) => server.close(() => done())) };
}

const rateOf = (loads: LoadFigures[]) => loads.reduce((sum, load) => sum + load.ok, 0) / loads.reduce((sum, load) => sum + load.durationS, 0);

export async function measureTracing(options: TracingOptions): Promise<TracingFigures> {
  const receiver = await droppingReceiver();
  const servers: ServerHandle[] = [];
  try {
    const start = (name: string, env: Record<string, string>) => startServer({ entry: options.entry, dataDir: join(options.workDir, `tracing-${name}`), logFile: join(options.workDir, `tracing-${name}.log`), env });
    const off = await start('off', {});
    servers.push(off);
    const on = await start('on', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    servers.push(on);
    // Warm-up, not recorded: the first orders compile the code paths of each server.
    for (const server of [off, on]) await orderLoad(server.base, Math.min(200, options.orders), options.connections, null);
    const rounds: TracingRound[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      const offLoad = await orderLoad(off.base, options.orders, options.connections, null);
      const onLoad = await orderLoad(on.base, options.orders, options.connections, null);
      rounds.push({ off: offLoad, on: onLoad });
      options.log(`  round ${round + 1}: tracing off ${offLoad.achievedRate.toFixed(0)} orders/s (p99 ${offLoad.p99.toFixed(1)} ms), on ${onLoad.achievedRate.toFixed(0)} orders/s (p99 ${onLoad.p99.toFixed(1)} ms)`);
    }
    // The traced server's last batch of spans is exported as it stops.
    await Promise.all(servers.map((server) => server.stop()));
    return {
      rounds,
      offRate: rateOf(rounds.map((round) => round.off)),
      onRate: rateOf(rounds.map((round) => round.on)),
      exports: receiver.counts.exports,
      exportBytes: receiver.counts.bytes,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await receiver.close();
  }
}
