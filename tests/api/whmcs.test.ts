import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, guest, payOnSandbox, placeOrder, type TestApp } from './helper';

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ BILLING: 'whmcs' }); });
afterAll(async () => { await t?.close(); });

const calls = (action: string) => t.whmcs?.calls.filter((call) => call.action.toLowerCase() === action.toLowerCase()) ?? [];

describe('BILLING=whmcs against the fake WHMCS', () => {
  it('orders, pays on the sandbox page, and reads the credentials WHMCS holds', async () => {
    const shopper = await guest(t.app);
    const before = t.whmcs?.calls.length ?? 0;
    const order = await placeOrder(shopper);
    expect(order.amount).toBe(12.99);
    expect(calls('AddOrder')).toHaveLength(1);
    await payOnSandbox(t.app, order.link);
    const status = await shopper.call('getOrderStatus', { query: { orderid: String(order.orderid) } });
    expect(status.status, status.text).toBe(200);
    expect(status.body).toMatchObject({ status: 'Active', invoiceStatus: 'Paid' });
    const serviceid = order.serviceids[0] as number;
    const service = await shopper.call('getClientProducts', { query: { serviceid: String(serviceid) } });
    expect(service.status, service.text).toBe(200);
    const held = t.whmcs?.state.services.find((candidate: { id: number }) => candidate.id === serviceid);
    expect(service.body.username).toMatch(/^TV-\d{8}$/);
    expect(service.body.password).toMatch(/^\d{12}$/);
    expect(JSON.stringify(held)).toContain(service.body.username as string);
    expect(calls('AddInvoicePayment')).toHaveLength(1);
    expect(calls('AcceptOrder')).toHaveLength(1);
    console.log('WHMCS calls for a purchase:', t.whmcs?.calls.slice(before).map((call) => call.action).join(' '));
  });
});
