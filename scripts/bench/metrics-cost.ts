/**
 * What the metrics cost (issue 28): the order load on a server without the operator listener and on one with
 * OPS_PORT set and scraped every second (Prometheus's usual interval is 15 s), tracing off, rounds alternated so
 * both meet the same moments of the machine. Each round starts a fresh server on a fresh data directory.
 */
import { join } from 'node:path';
import { orderLoad, type LoadFigures } from './load';
import { freePort, request, startServer } from './lib/proc';

export interface MetricsCostOptions {
  entry: string[];
  workDir: string;
  distDir?: string | undefined;
  orderCount: number;
  orderConnections: number;
  rounds: number;
  log: (line: string) => void;
}

export interface MetricsCost {
  off: LoadFigures[];
  on: (LoadFigures & { scrapes: number })[];
  /** Orders per second over all rounds of each kind. */
  offRate: number;
  onRate: number;
}

const rateOf = (runs: LoadFigures[]) => runs.reduce((sum, run) => sum + run.ok, 0) / runs.reduce((sum, run) => sum + run.durationS, 0);

export async function measureMetricsCost(options: MetricsCostOptions): Promise<MetricsCost> {
  const off: LoadFigures[] = [];
  const on: MetricsCost['on'] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    for (const metrics of round % 2 === 0 ? [false, true] : [true, false]) {
      const name = `metrics-${metrics ? 'on' : 'off'}-${round}`;
      const opsPort = metrics ? await freePort() : null;
      const server = await startServer({
        entry: options.entry, dataDir: join(options.workDir, name), logFile: join(options.workDir, `${name}-server.log`), distDir: options.distDir,
        // Load shedding off: a flood of orders is shed by the store gate, which would time the refusals, not the orders.
        env: { LOAD_SHEDDING: 'off', ...(opsPort ? { OPS_PORT: String(opsPort) } : {}) },
      });
      try {
        let scrapes = 0;
        let scraping = true;
        const scraper = opsPort ? (async () => {
          while (scraping) {
            const answer = await request(`http://127.0.0.1:${opsPort}/metrics`);
            if (answer.status !== 200) throw new Error(`/metrics answered ${answer.status}`);
            scrapes += 1;
            await new Promise((resolve) => setTimeout(resolve, 1_000));
          }
        })() : null;
        const orders = await orderLoad(server.base, options.orderCount, options.orderConnections, null);
        scraping = false;
        await scraper;
        options.log(`  metrics ${metrics ? 'on' : 'off'}, round ${round + 1}: ${orders.ok} orders in ${orders.durationS.toFixed(1)} s (${(orders.ok / orders.durationS).toFixed(1)}/s), p99 ${orders.p99.toFixed(1)} ms, non-2xx ${JSON.stringify(orders.non2xx)}${opsPort ? `, ${scrapes} scrapes` : ''}`);
        if (metrics) on.push({ ...orders, scrapes });
        else off.push(orders);
      } finally {
        await server.stop();
      }
    }
  }
  return { off, on, offRate: rateOf(off), onRate: rateOf(on) };
}
