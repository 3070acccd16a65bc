import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/db/connect';
import { clients, idempotencyKeys, invoices, orders, payments, whmcsUndos } from '../../src/server/db/schema';
import { runOpsScript } from './run-ops-script';

const LINK_ID = 'pay_SecretBearerToken0123456789abcdef';

/** npm run whmcs:unfinished as an operator runs it, on a data directory of its own. */
const listUnfinished = (dataDir: string, ...args: string[]) => runOpsScript('whmcs-unfinished', dataDir, args);

describe('npm run whmcs:unfinished', () => {
  let dataDir: string;
  let emptyDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'whmcs-unfinished-'));
    emptyDir = mkdtempSync(join(tmpdir(), 'whmcs-unfinished-empty-'));
    const store = await openStore({ engine: 'pglite', dataDir });
    await store.db.insert(clients).values({ id: 7, email: 'shopper@mail.test' });
    await store.db.insert(orders).values({ id: 41, clientId: 7, kind: 'retail', status: 'Pending', ip: '192.0.2.1', country: 'NL', currency: 'EUR', amountCents: 1299 });
    await store.db.insert(invoices).values({ id: 51, clientId: 7, kind: 'order', orderId: 41, status: 'Paid', currency: 'EUR', amountCents: 1299 });
    await store.db.insert(payments).values({ id: LINK_ID, invoiceId: 51, gateway: 'sandbox', currency: 'EUR', amountCents: 1299, status: 'Paid', expiresAt: new Date('2025-06-02T10:00:00Z'), createdAt: new Date('2025-06-01T09:00:00Z') });
    await store.db.insert(idempotencyKeys).values({ scope: 'whmcs-apply-payment', key: LINK_ID, requestHash: '', statusCode: 0, response: {} });
    await store.db.insert(whmcsUndos).values([
      { action: 'CancelOrder', whmcsId: 42, reason: 'price_changed', attempts: 3, nextAttemptAt: new Date('2025-06-01T11:00:00Z'), lastError: 'CancelOrder: unavailable (HTTP 500, not JSON)', createdAt: new Date('2025-06-01T10:00:00Z') },
      // Accepted by WHMCS, and one a retry finished: neither is owed any more.
      { action: 'CancelInvoice', whmcsId: 60, reason: 'unfinished', status: 'done', nextAttemptAt: new Date('2025-06-01T10:30:00Z'), createdAt: new Date('2025-06-01T10:00:00Z') },
      { action: 'CancelOrder', whmcsId: 43, reason: 'unfinished', status: 'superseded', nextAttemptAt: new Date('2025-06-01T10:30:00Z'), createdAt: new Date('2025-06-01T10:00:00Z') },
    ]);
    await store.close();
  }, 120_000);
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(emptyDir, { recursive: true, force: true });
  });

  it('prints the undos WHMCS has not accepted and the payments not applied there, never a whole link id', async () => {
    const { stdout } = await listUnfinished(dataDir);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^2025-06-01T10:00:00\.000Z +undo +CancelOrder +order 42 +price_changed +attempts 3 +next 2025-06-01T11:00:00\.000Z +last: CancelOrder: unavailable \(HTTP 500, not JSON\)$/);
    expect(lines[1]).toMatch(/^2025-06-01T09:00:00\.000Z +payment +invoice 51 +order 41 +sandbox +12\.99 EUR +payment pay_Secret…$/);
    expect(lines[2]).toBe('1 undo and 1 payment not yet accepted by WHMCS (oldest first).');
    expect(stdout).not.toContain(LINK_ID);
  }, 60_000);

  it('--json gives the same rows as JSON', async () => {
    const { stdout } = await listUnfinished(dataDir, '--json');
    expect(JSON.parse(stdout)).toEqual({
      undos: [expect.objectContaining({ action: 'CancelOrder', whmcsId: 42, reason: 'price_changed', attempts: 3 })],
      payments: [expect.objectContaining({ invoiceId: 51, orderId: 41, amountCents: 1299, currency: 'EUR', paymentId: 'pay_Secret…' })],
    });
  }, 60_000);

  it('says so when nothing is owed, and refuses an unknown argument', async () => {
    expect((await listUnfinished(emptyDir)).stdout.trim()).toBe('Nothing unfinished in WHMCS.');
    await expect(listUnfinished(emptyDir, '--all')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Unknown argument --all') });
  }, 120_000);
});
