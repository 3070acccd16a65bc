import type { Page } from '@playwright/test';
import type { FlowBatch } from '../../src/domain/flow-traffic';
import { expect, hydrated, serverUrl, test } from './support/fixtures';
import { startRecordingProxy } from './support/recording-proxy';

// Issue 29 item 1: the app's flow traffic, as Chromium sends it when a shopper leaves.
const FLOW_EVENTS = '/checkout/api/flowEvents';
/** The sender's chunk, as Vite names a dynamically imported module. */
const SENDER_CHUNK = /\/checkout\/assets\/sender-[\w-]+\.js$/;

/** Opens the index through the proxy, chooses the 6 Months plan, waits until the page is quiet (the sender loaded, if it may), and leaves. */
async function choosePlanAndLeave(page: Page, origin: string): Promise<{ senderLoaded: boolean }> {
  let senderLoaded = false;
  page.on('request', (request) => {
    if (SENDER_CHUNK.test(new URL(request.url()).pathname)) senderLoaded = true;
  });
  await page.goto(`${origin}/checkout/`);
  await hydrated(page);
  await page.getByRole('radio', { name: /^6 Months/ }).check();
  await expect(page.getByRole('radio', { name: /^6 Months/ })).toBeChecked();
  await page.waitForLoadState('networkidle');
  await page.goto('about:blank');
  return { senderLoaded };
}

test('a visit that chooses a plan and leaves sends its steps and where it ended, as same-origin JSON', async ({ page }) => {
  const proxy = await startRecordingProxy(serverUrl(), FLOW_EVENTS);
  try {
    const { senderLoaded } = await choosePlanAndLeave(page, proxy.origin);
    expect(senderLoaded).toBe(true);
    await expect.poll(() => proxy.recorded.length).toBeGreaterThan(0);
    const batches = proxy.recorded.map((post) => JSON.parse(post.body) as FlowBatch);
    for (const post of proxy.recorded) {
      expect(post.headers['content-type']).toBe('application/json');
      expect(post.headers.origin).toBe(proxy.origin);
      expect(post.headers.cookie ?? '').not.toMatch(/flow/i);
    }
    for (const batch of batches) expect(batch.locale).toBe('en-en');
    const steps = batches.flatMap((batch) => batch.steps);
    // The checkout's start: its root and first state (machines/checkout.machine.ts: id 'checkout', initial 'loading').
    expect(steps).toContainEqual({ machine: 'checkout', transitions: [], entered: expect.arrayContaining(['checkout', 'checkout.loading']), exited: [] });
    // The plan choice: the plan region's `plan.select`, guarded by isOfferedPlan (machines/checkout.form.ts).
    expect(steps).toContainEqual(expect.objectContaining({ machine: 'checkout', transitions: [{ source: 'checkout.ready.plan.selected', event: 'plan.select', targets: [], guard: 'isOfferedPlan' }] }));
    const ended = batches.flatMap((batch) => batch.ended);
    expect(ended).toContainEqual({ machine: 'checkout', states: expect.arrayContaining(['checkout.ready.plan.selected', 'checkout.ready.email.empty']) });
  } finally {
    await proxy.close();
  }
});

test.describe('with Global Privacy Control (Sec-GPC: 1)', () => {
  test.use({ extraHTTPHeaders: { 'Sec-GPC': '1' } });

  test('the same visit loads no reporter and sends nothing', async ({ page }) => {
    const proxy = await startRecordingProxy(serverUrl(), FLOW_EVENTS);
    try {
      const { senderLoaded } = await choosePlanAndLeave(page, proxy.origin);
      // A beacon would leave as the page is left: give it the time the other test's takes.
      await page.waitForTimeout(1_000);
      expect(proxy.recorded).toEqual([]);
      expect(senderLoaded).toBe(false);
    } finally {
      await proxy.close();
    }
  });
});
