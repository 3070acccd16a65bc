import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/db/connect';
import { paymentExceptions } from '../../src/server/db/schema';
import { runOpsScript } from './run-ops-script';

const LINK_ID = 'pay_SecretBearerToken0123456789abcdef';

/** npm run payments:exceptions as an operator runs it, on a data directory of its own. */
const listExceptions = (dataDir: string, ...args: string[]) => runOpsScript('payment-exceptions', dataDir, args);

describe('npm run payments:exceptions', () => {
  let dataDir: string;
  let emptyDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'payment-exceptions-'));
    emptyDir = mkdtempSync(join(tmpdir(), 'payment-exceptions-empty-'));
    const store = await openStore({ engine: 'pglite', dataDir });
    await store.db.insert(paymentExceptions).values([
      { gateway: 'sandbox', eventId: 'evt_older', eventType: 'payment.succeeded', paymentId: LINK_ID, invoiceId: 2001, amountCents: 1299, currency: 'EUR', reason: 'invoice_paid', receivedAt: new Date('2025-06-01T10:00:00Z') },
      { gateway: 'sandboxcrypto', eventId: 'evt_newer', eventType: 'payment.succeeded', paymentId: 'pay_unknown', invoiceId: 2002, amountCents: 1, currency: 'GBP', reason: 'unknown_payment', receivedAt: new Date('2025-06-02T10:00:00Z') },
    ]);
    await store.close();
  }, 120_000);
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(emptyDir, { recursive: true, force: true });
  });

  it('prints the exceptions newest first, with reason, invoice, gateway, amount and event, never a whole link id', async () => {
    const { stdout } = await listExceptions(dataDir);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^2025-06-02T10:00:00\.000Z +unknown_payment +invoice 2002 +sandboxcrypto +0\.01 GBP +payment\.succeeded +event evt_newer +payment pay_unknow…$/);
    expect(lines[1]).toMatch(/^2025-06-01T10:00:00\.000Z +invoice_paid +invoice 2001 +sandbox +12\.99 EUR +payment\.succeeded +event evt_older +payment pay_Secret…$/);
    expect(lines[2]).toBe('2 payment exceptions (newest first).');
    expect(stdout).not.toContain(LINK_ID);
  }, 60_000);

  it('--limit 1 --json gives the newest one as JSON', async () => {
    const { stdout } = await listExceptions(dataDir, '--limit', '1', '--json');
    expect(JSON.parse(stdout)).toEqual([expect.objectContaining({ eventId: 'evt_newer', reason: 'unknown_payment', invoiceId: 2002, amountCents: 1, currency: 'GBP' })]);
  }, 60_000);

  it('says so when there are none, and refuses an unknown argument', async () => {
    expect((await listExceptions(emptyDir)).stdout.trim()).toBe('No payment exceptions.');
    await expect(listExceptions(emptyDir, '--everything')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Unknown argument --everything') });
  }, 120_000);
});
