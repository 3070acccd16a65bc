import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTwoInstances, guest, localBillingOnly, placeOrder, rows, type TestApp } from './helper';

const local = localBillingOnly('the local billing draws order, invoice and service ids from the store\'s sequences; with WHMCS they are WHMCS\'s');

local.describe('order ids drawn ahead by two instances sharing one store', () => {
  let t: TestApp & { second: TestApp['app'] };
  beforeAll(async () => {
    // Forty orders from two addresses: the velocity rule is not what this is about.
    t = await createTwoInstances({ FRAUD_MAX_ORDERS_PER_IP_PER_HOUR: '1000' });
  });
  afterAll(async () => t?.close());

  local.it('orders placed on either instance in turn get distinct ids, rising on each instance, and each row is the order the answer names', async () => {
    const shoppers = [await guest(t.app), await guest(t.second)];
    const placed: { instance: number; orderid: number; invoiceid: number; serviceids: number[] }[] = [];
    for (let index = 0; index < 40; index += 1) {
      const instance = index % 2;
      placed.push({ instance, ...(await placeOrder(shoppers[instance] as Awaited<ReturnType<typeof guest>>)) });
    }
    for (const key of ['orderid', 'invoiceid'] as const) expect(new Set(placed.map((order) => order[key])).size).toBe(40);
    expect(new Set(placed.flatMap((order) => order.serviceids)).size).toBe(40);
    for (const instance of [0, 1]) {
      const mine = placed.filter((order) => order.instance === instance).map((order) => order.orderid);
      expect(mine).toEqual([...mine].sort((a, b) => a - b));
    }
    const stored = await rows<{ id: number; invoice: number; service: number }>(t.db, sql`
      select o.id, i.id as invoice, s.id as service from orders o join invoices i on i.order_id = o.id join services s on s.order_id = o.id
      where o.id in (${sql.join(placed.map((order) => sql`${order.orderid}`), sql`, `)})`);
    expect(stored.map((row) => [row.id, row.invoice, row.service]).sort((a, b) => (a[0] as number) - (b[0] as number)))
      .toEqual(placed.map((order) => [order.orderid, order.invoiceid, order.serviceids[0]]).sort((a, b) => (a[0] as number) - (b[0] as number)));
  });
});
