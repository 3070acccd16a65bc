import { describe, expect, it } from 'vitest';
import { createShopMetrics } from './registry';

const scrape = async (read: () => Promise<{ pending: number; oldestPendingSeconds: number }>) => {
  const metrics = createShopMetrics({ version: '0.1.0', commit: 'unknown' }, { defaults: false });
  metrics.readOutboxFrom(read);
  return metrics.registry.metrics();
};

describe('the store as a scrape sees it', () => {
  it('is up (1) while the outbox read answers, with the outbox gauges from that read', async () => {
    const text = await scrape(async () => ({ pending: 3, oldestPendingSeconds: 42 }));
    expect(text).toMatch(/^checkout_store_up 1$/m);
    expect(text).toMatch(/^checkout_outbox_pending 3$/m);
    expect(text).toMatch(/^checkout_outbox_oldest_pending_seconds 42$/m);
  });

  it('is down (0) when the read fails or times out; the outbox gauges keep what the store last said', async () => {
    const metrics = createShopMetrics({ version: '0.1.0', commit: 'unknown' }, { defaults: false });
    let reachable = true;
    metrics.readOutboxFrom(async () => {
      if (!reachable) throw new Error('connect ECONNREFUSED');
      return { pending: 3, oldestPendingSeconds: 42 };
    });
    expect(await metrics.registry.metrics()).toMatch(/^checkout_store_up 1$/m);
    reachable = false;
    await new Promise((resolve) => setImmediate(resolve));
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^checkout_store_up 0$/m);
    expect(text).toMatch(/^checkout_outbox_pending 3$/m);
  });
});
