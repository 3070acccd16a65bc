import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, calendarDate } from '../../src/domain/billing-cycle';
import { applyCatalogue } from '../../src/server/catalogue/apply';
import { DEMO_CATALOGUE_FILE, loadCatalogueFile } from '../../src/server/catalogue/load';
import { openStore } from '../../src/server/db/connect';
import { clients, invoices, orders, services } from '../../src/server/db/schema';
import { runOpsScript } from './run-ops-script';

const EMAIL = 'renewing.shopper@mail.test';

/** npm run renewals:due as an operator runs it, on a data directory of its own. */
const listDue = (dataDir: string, ...args: string[]) => runOpsScript('renewals-due', dataDir, args);

describe('npm run renewals:due', () => {
  let dataDir: string;
  const today = calendarDate(new Date());
  const inTwoDays = addDays(today, 2);
  const inTwentyDays = addDays(today, 20);
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'renewals-due-'));
    const store = await openStore({ engine: 'pglite', dataDir });
    await applyCatalogue(store.db, loadCatalogueFile(DEMO_CATALOGUE_FILE));
    await store.db.insert(clients).values({ id: 7, email: EMAIL });
    await store.db.insert(orders).values({ id: 41, clientId: 7, kind: 'retail', status: 'Active', ip: '192.0.2.1', country: 'NL', currency: 'EUR', amountCents: 1299 });
    const service = { clientId: 7, orderId: 41, serverHostname: 'stream.example' };
    await store.db.insert(services).values([
      { ...service, id: 61, pid: 1, billingcycle: 'Monthly', status: 'Active', nextDueDate: inTwoDays },
      { ...service, id: 62, pid: 2, billingcycle: 'Semi-Annually', status: 'Suspended', nextDueDate: inTwentyDays },
      { ...service, id: 63, pid: 1, billingcycle: 'Monthly', status: 'Terminated', nextDueDate: addDays(today, 1) },
      { ...service, id: 64, pid: 3, billingcycle: 'One Time', status: 'Active', nextDueDate: null },
    ]);
    await store.db.insert(invoices).values({
      id: 51, clientId: 7, kind: 'renewal', serviceId: 61, status: 'Unpaid', currency: 'EUR', amountCents: 1299, periodStart: inTwoDays, periodEnd: addDays(inTwoDays, 30),
    });
    await store.close();
  }, 120_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('lists the running and suspended services due within RENEWAL_INVOICE_DAYS (7), with their invoice, and no e-mail address', async () => {
    const { stdout } = await listDue(dataDir);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${inTwoDays} +service 61 +client 7 +1 Month \\(Monthly\\) +Active +invoice 51 Unpaid 12\\.99 EUR$`));
    expect(lines[1]).toBe(`1 service falling due by ${addDays(today, 7)} (within 7 days).`);
    expect(stdout).not.toContain(EMAIL);
  }, 60_000);

  it('--days 30 reaches further; --json gives the same rows; an unknown argument is refused', async () => {
    const { stdout } = await listDue(dataDir, '--days', '30');
    expect(stdout).toMatch(new RegExp(`^${inTwentyDays} +service 62 +client 7 +6 Months \\(Semi-Annually\\) +Suspended +no invoice yet$`, 'm'));
    const json = JSON.parse((await listDue(dataDir, '--days', '30', '--json')).stdout) as { services: { serviceId: number }[] };
    expect(json.services.map((row) => row.serviceId)).toEqual([61, 62]);
    await expect(listDue(dataDir, '--days', 'soon')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Unknown argument --days') });
  }, 120_000);

  it('with BILLING=whmcs says where WHMCS lists its renewals, and lists nothing', async () => {
    const whmcs = {
      BILLING: 'whmcs', WHMCS_API_URL: 'http://127.0.0.1:9/includes/api.php', WHMCS_API_IDENTIFIER: 'id', WHMCS_API_SECRET: 'secret',
      WHMCS_RETAIL_GID: '1', WHMCS_RESELLER_GID: '2', WHMCS_RESELLER_CLIENT_GROUP: '1',
    };
    await expect(runOpsScript('renewals-due', dataDir, [], whmcs)).rejects.toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('WHMCS issues and lists the renewals') });
  }, 60_000);
});
