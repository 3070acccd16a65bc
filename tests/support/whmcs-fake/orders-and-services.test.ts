/**
 * Orders, invoices, payments and services on the fake, against the reference's facts (integrations.md
 * §1-3) with prices from the demo catalogue (demo.yaml): totals are worked out here by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWhmcs, type Json } from './call';
import { phpSerializeBase64 } from './php-serialize';
import { type PromotionRow, demoSeed } from './seed';
import { createWhmcsFake, type WhmcsFake } from './server';

let whmcs: WhmcsFake;
const call = async (action: string, params: Record<string, string> = {}) => (await callWhmcs(whmcs, action, params)).body;

beforeAll(async () => {
  whmcs = await createWhmcsFake();
});
afterAll(() => whmcs.close());

let guests = 0;
/** A new client (no orders yet), EUR unless currency 2 (GBP). */
async function newClient(currency = '1'): Promise<string> {
  guests += 1;
  const added = await call('AddClient', { email: `guest${guests}@example.test`, firstname: 'G', lastname: String(guests), password2: 'pw-123456', skipvalidation: '1', currency });
  expect(added.result).toBe('success');
  return String(added.clientid);
}

interface Item { pid: number; cycle: string; config?: Record<number, number>; fields?: Record<number, string> }
async function addOrder(clientid: string, items: Item[], extra: Record<string, string> = {}): Promise<Json> {
  const params: Record<string, string> = { clientid, paymentmethod: 'sandbox', clientip: '203.0.113.7', ...extra };
  items.forEach((item, index) => {
    params[`pid[${index}]`] = String(item.pid);
    params[`billingcycle[${index}]`] = item.cycle;
    if (item.config) params[`configoptions[${index}]`] = phpSerializeBase64(item.config);
    if (item.fields) params[`customfields[${index}]`] = phpSerializeBase64(item.fields);
  });
  return call('AddOrder', params);
}
const invoiceTotal = async (invoiceid: unknown) => (await call('GetInvoice', { invoiceid: String(invoiceid) })).total as string;
const serviceOf = async (serviceid: string) => (await call('GetClientsProducts', { serviceid, limitnum: '1' })).products.product[0] as Json;

describe('AddOrder', () => {
  it('answers orderid as a string, serviceids comma-separated, and an invoice for the catalogue price', async () => {
    const clientid = await newClient();
    const order = await addOrder(clientid, [{ pid: 1, cycle: 'monthly' }]);
    expect(order.result).toBe('success');
    expect(typeof order.orderid).toBe('string');
    expect(order.orderid).toMatch(/^\d+$/);
    expect(order.serviceids).toMatch(/^\d+$/);
    expect(Number(order.invoiceid)).toBeGreaterThan(0);
    expect(await invoiceTotal(order.invoiceid)).toBe('12.99');
    const orders = await call('GetOrders', { id: order.orderid });
    expect(orders.orders.order[0]).toMatchObject({ status: 'Pending', amount: '12.99', paymentmethod: 'sandbox' });
  });

  it('lists several products: serviceids "a,b", the invoice sums them (reseller 120 credits + panel activation: 349.00)', async () => {
    const order = await addOrder('2', [{ pid: 11, cycle: 'onetime' }, { pid: 13, cycle: 'onetime' }]);
    expect(order.serviceids).toMatch(/^\d+,\d+$/);
    expect(await invoiceTotal(order.invoiceid)).toBe('349.00');
  });

  it('prices configurable options: 1 Month + proxy protection = 15.49; 6 Months + one extra connection = 79.99', async () => {
    const clientid = await newClient();
    expect(await invoiceTotal((await addOrder(clientid, [{ pid: 1, cycle: 'monthly', config: { 4: 1 } }])).invoiceid)).toBe('15.49');
    expect(await invoiceTotal((await addOrder(clientid, [{ pid: 2, cycle: 'semiannually', config: { 2: 1 } }])).invoiceid)).toBe('79.99');
    expect(await invoiceTotal((await addOrder(clientid, [{ pid: 1, cycle: 'monthly', config: { 2: 1, 4: 1 } }])).invoiceid)).toBe('19.49');
  });

  it('prices in the client\'s currency: a GBP client pays 10.99 for 1 Month', async () => {
    const clientid = await newClient('2');
    expect(await invoiceTotal((await addOrder(clientid, [{ pid: 1, cycle: 'monthly' }])).invoiceid)).toBe('10.99');
  });

  it('applies a valid promotion to the invoice: WELCOME10 on 15.49 is 13.94; HALFYEAR20 on 79.99 is 63.99', async () => {
    const clientid = await newClient();
    expect(await invoiceTotal((await addOrder(clientid, [{ pid: 1, cycle: 'monthly', config: { 4: 1 } }], { promocode: 'WELCOME10' })).invoiceid)).toBe('13.94');
    expect(await invoiceTotal((await addOrder(clientid, [{ pid: 2, cycle: 'semiannually', config: { 2: 1 } }], { promocode: 'HALFYEAR20' })).invoiceid)).toBe('63.99');
  });

  it('converts a Fixed Amount from the default currency: SAVE5 takes £4.25 off a GBP order (10.99 -> 6.74)', async () => {
    const clientid = await newClient('2');
    expect(await invoiceTotal((await addOrder(clientid, [{ pid: 1, cycle: 'monthly' }], { promocode: 'SAVE5' })).invoiceid)).toBe('6.74');
  });

  it('silently drops an invalid or inapplicable code: expired, used up, wrong product, unknown', async () => {
    const clientid = await newClient();
    for (const promocode of ['EXPIRED15', 'USEDUP50', 'HALFYEAR20', 'NOSUCHCODE']) {
      const order = await addOrder(clientid, [{ pid: 1, cycle: 'monthly' }], { promocode });
      expect(order.result).toBe('success');
      expect(await invoiceTotal(order.invoiceid)).toBe('12.99');
    }
  });

  it('skips the start-date check (observed): FUTURE25 applies to Lifetime, 199.00 -> 149.25', async () => {
    const clientid = await newClient();
    expect(await invoiceTotal((await addOrder(clientid, [{ pid: 3, cycle: 'onetime' }], { promocode: 'FUTURE25' })).invoiceid)).toBe('149.25');
  });

  it('stops a code at maxuses', async () => {
    const seeded = await createWhmcsFake();
    try {
      const row = seeded.state.promotions.find((promotion) => promotion.code === 'WELCOME10');
      if (!row) throw new Error('WELCOME10 missing from the seed');
      row.maxuses = row.uses + 1;
      const order = (promocode: string) => callWhmcs(seeded, 'AddOrder', { clientid: '1', paymentmethod: 'sandbox', 'pid[0]': '1', 'billingcycle[0]': 'monthly', promocode });
      const first = (await order('WELCOME10')).body;
      const second = (await order('WELCOME10')).body;
      expect((await callWhmcs(seeded, 'GetInvoice', { invoiceid: String(first.invoiceid) })).body.total).toBe('11.69');
      expect((await callWhmcs(seeded, 'GetInvoice', { invoiceid: String(second.invoiceid) })).body.total).toBe('12.99');
    } finally {
      await seeded.close();
    }
  });

  it('follows the promotion flags and limits of reference §3: cycles, applyonce, newsignups, onceperclient, existingclient, requires', async () => {
    const seed = demoSeed();
    const base = seed.promotions[0] as PromotionRow;
    const row = (id: number, code: string, fields: Partial<PromotionRow>): PromotionRow => ({ ...base, id, code, type: 'Percentage', value: '50.00', appliesto: '1,2,3', ...fields });
    seed.promotions.push(
      row(101, 'MONTHLYONLY', { cycles: 'Monthly' }),
      row(102, 'ONCEITEM', { applyonce: 1 }),
      row(103, 'NEWONLY', { newsignups: 1 }),
      row(104, 'ONCEPER', { onceperclient: 1 }),
      row(105, 'EXISTING', { existingclient: 1 }),
      row(106, 'NEEDS3', { requires: '3' }),
      row(107, 'NEEDS1OWNED', { requires: '1', requiresexisting: 1 }),
    );
    const fake = await createWhmcsFake({ seed });
    try {
      const total = async (clientid: string, pids: [number, string][], promocode: string) => {
        const params: Record<string, string> = { clientid, paymentmethod: 'sandbox', promocode };
        pids.forEach(([pid, cycle], index) => {
          params[`pid[${index}]`] = String(pid);
          params[`billingcycle[${index}]`] = cycle;
        });
        const order = (await callWhmcs(fake, 'AddOrder', params)).body;
        return (await callWhmcs(fake, 'GetInvoice', { invoiceid: String(order.invoiceid) })).body.total as string;
      };
      const fresh = async (email: string) => String((await callWhmcs(fake, 'AddClient', { email, password2: 'p', skipvalidation: '1' })).body.clientid);
      // cycles: Monthly only, so 6 Months (Semi-Annually) at 59.99 is not discounted; 1 Month is (12.99 / 2 = 6.495 -> 6.50 off).
      expect(await total(await fresh('c1@example.test'), [[2, 'semiannually']], 'MONTHLYONLY')).toBe('59.99');
      expect(await total(await fresh('c2@example.test'), [[1, 'monthly']], 'MONTHLYONLY')).toBe('6.49');
      // applyonce: only the first of two 1 Month items (12.99 + 12.99 - 6.50).
      expect(await total(await fresh('c3@example.test'), [[1, 'monthly'], [1, 'monthly']], 'ONCEITEM')).toBe('19.48');
      // newsignups: the demo client (who has orders) gets nothing; a new client gets it.
      expect(await total('1', [[1, 'monthly']], 'NEWONLY')).toBe('12.99');
      expect(await total(await fresh('c4@example.test'), [[1, 'monthly']], 'NEWONLY')).toBe('6.49');
      // onceperclient: a second order with the code (the first still Pending) is not discounted.
      const once = await fresh('c5@example.test');
      expect(await total(once, [[1, 'monthly']], 'ONCEPER')).toBe('6.49');
      expect(await total(once, [[1, 'monthly']], 'ONCEPER')).toBe('12.99');
      // existingclient: needs an Active order; the demo client has one.
      expect(await total(await fresh('c6@example.test'), [[1, 'monthly']], 'EXISTING')).toBe('12.99');
      expect(await total('1', [[1, 'monthly']], 'EXISTING')).toBe('6.49');
      // requires: product 3 in the same order; with requiresexisting, an Active service of product 1 is enough (59.99 - 30.00, 29.995 rounded half up).
      expect(await total(await fresh('c7@example.test'), [[1, 'monthly']], 'NEEDS3')).toBe('12.99');
      expect(await total(await fresh('c8@example.test'), [[1, 'monthly'], [3, 'onetime']], 'NEEDS3')).toBe('105.99');
      expect(await total('1', [[2, 'semiannually']], 'NEEDS1OWNED')).toBe('29.99');
      expect(await total(await fresh('c9@example.test'), [[2, 'semiannually']], 'NEEDS1OWNED')).toBe('59.99');
    } finally {
      await fake.close();
    }
  });

  it('refuses an inactive payment method, listing the valid ones', async () => {
    const order = await call('AddOrder', { clientid: '1', paymentmethod: 'paypal', 'pid[0]': '1', 'billingcycle[0]': 'monthly' });
    expect(order.result).toBe('error');
    expect(order.message).toMatch(/^Invalid Payment Method\. Valid options include /);
    expect(order.message).toContain('sandbox');
  });

  it('refuses a clientip that is not an IP, and an unknown client', async () => {
    expect((await addOrder('1', [{ pid: 1, cycle: 'monthly' }], { clientip: 'localhost' })).result).toBe('error');
    expect(await addOrder('99999', [{ pid: 1, cycle: 'monthly' }])).toEqual({ result: 'error', message: 'Client ID Not Found' });
    expect((await addOrder('1', [{ pid: 1, cycle: 'monthly' }], { clientip: '2001:db8::1' })).result).toBe('success');
  });

  it('keeps custom fields sent with s:N in UTF-8 bytes, multi-byte values included', async () => {
    const order = await addOrder('1', [{ pid: 1, cycle: 'monthly', fields: { 11: 'TV-12345678', 12: 'Café123' } }]);
    const service = await serviceOf(order.serviceids);
    const fields = Object.fromEntries((service.customfields.customfield as Json[]).map((field) => [field.name, field.value]));
    expect(fields).toMatchObject({ Username: 'TV-12345678', Password: 'Café123' });
  });

  it('does not keep custom fields whose s:N counts characters (PHP unserialize fails)', async () => {
    const wrong = Buffer.from('a:2:{i:11;s:11:"TV-12345678";i:12;s:7:"Café123";}', 'utf8').toString('base64');
    const order = await call('AddOrder', { clientid: '1', paymentmethod: 'sandbox', 'pid[0]': '1', 'billingcycle[0]': 'monthly', 'customfields[0]': wrong });
    expect(order.result).toBe('success');
    const service = await serviceOf(order.serviceids);
    expect((service.customfields.customfield as Json[]).find((field) => field.name === 'Username')?.value).toBe('');
  });
});

describe('AcceptOrder, CancelOrder, FraudOrder', () => {
  it('accepts a Pending order; autosetup provisions its services (Active, credentials from the custom fields)', async () => {
    const order = await addOrder('1', [{ pid: 1, cycle: 'monthly', fields: { 11: 'TV-87654321', 12: '111122223333' } }]);
    expect((await serviceOf(order.serviceids)).status).toBe('Pending');
    expect(await call('AcceptOrder', { orderid: order.orderid, autosetup: '1', sendemail: '0' })).toEqual({ result: 'success' });
    const service = await serviceOf(order.serviceids);
    expect(service).toMatchObject({ status: 'Active', username: 'TV-87654321', password: '111122223333' });
    expect((await call('GetOrders', { id: order.orderid })).orders.order[0].status).toBe('Active');
  });

  it('refuses an order no longer Pending, and an unknown one', async () => {
    const order = await addOrder('1', [{ pid: 1, cycle: 'monthly' }]);
    await call('AcceptOrder', { orderid: order.orderid, autosetup: '1' });
    expect(await call('AcceptOrder', { orderid: order.orderid, autosetup: '1' })).toEqual({ result: 'error', message: 'Order ID not found or Status not Pending' });
    expect(await call('AcceptOrder', { orderid: '99999' })).toEqual({ result: 'error', message: 'Order ID not found or Status not Pending' });
  });

  it('leaves the order Pending when the module create fails, so AcceptOrder can be retried', async () => {
    const order = await addOrder('1', [{ pid: 1, cycle: 'monthly' }]);
    whmcs.failModuleCreate('Panel API unreachable');
    expect(await call('AcceptOrder', { orderid: order.orderid, autosetup: '1' })).toEqual({ result: 'error', message: 'Panel API unreachable' });
    expect((await call('GetOrders', { id: order.orderid })).orders.order[0].status).toBe('Pending');
    expect((await call('AcceptOrder', { orderid: order.orderid, autosetup: '1' })).result).toBe('success');
  });

  it('treats autosetup "false" as true, as PHP does', async () => {
    const order = await addOrder('1', [{ pid: 1, cycle: 'monthly' }]);
    await call('AcceptOrder', { orderid: order.orderid, autosetup: 'false' });
    expect((await serviceOf(order.serviceids)).status).toBe('Active');
  });

  it('cancels a Pending order (its invoice too) and marks an order as fraud', async () => {
    const cancelled = await addOrder('1', [{ pid: 1, cycle: 'monthly' }]);
    expect(await call('CancelOrder', { orderid: cancelled.orderid, cancelsub: '0', noemail: '1' })).toEqual({ result: 'success' });
    expect((await call('GetOrders', { id: cancelled.orderid })).orders.order[0].status).toBe('Cancelled');
    expect((await call('GetInvoice', { invoiceid: String(cancelled.invoiceid) })).status).toBe('Cancelled');
    expect(await call('CancelOrder', { orderid: cancelled.orderid })).toEqual({ result: 'error', message: 'Order ID not found or Status not Pending' });
    const fraud = await addOrder('1', [{ pid: 1, cycle: 'monthly' }]);
    expect(await call('FraudOrder', { orderid: fraud.orderid })).toEqual({ result: 'success' });
    expect((await call('GetOrders', { id: fraud.orderid })).orders.order[0].status).toBe('Fraud');
    expect((await serviceOf(fraud.serviceids)).status).toBe('Fraud');
  });
});

describe('invoices and payments', () => {
  it('GetInvoice of a missing invoice answers status, not result', async () => {
    expect(await call('GetInvoice', { invoiceid: '99999' })).toEqual({ status: 'error', message: 'Invoice ID Not Found' });
  });

  it('GetInvoice lists the documented fields, with transactions "" before any payment', async () => {
    const order = await addOrder('1', [{ pid: 1, cycle: 'monthly' }]);
    const invoice = await call('GetInvoice', { invoiceid: String(order.invoiceid) });
    for (const field of ['invoiceid', 'userid', 'date', 'duedate', 'datepaid', 'subtotal', 'credit', 'tax', 'total', 'balance', 'status', 'paymentmethod', 'items', 'transactions']) {
      expect(invoice).toHaveProperty(field);
    }
    expect(invoice).toMatchObject({ status: 'Unpaid', total: '12.99', balance: '12.99', transactions: '', datepaid: '0000-00-00 00:00:00', paymentmethod: 'sandbox' });
    expect(invoice.items.item[0]).toMatchObject({ amount: '12.99' });
  });

  it('AddInvoicePayment marks the invoice Paid once the balance reaches 0', async () => {
    const order = await addOrder('1', [{ pid: 1, cycle: 'monthly' }]);
    const invoiceid = String(order.invoiceid);
    expect(await call('AddInvoicePayment', { invoiceid, transid: 'part-1', amount: '5.00', gateway: 'sandbox', date: '2026-01-02 10:00:00' })).toEqual({ result: 'success' });
    expect(await call('GetInvoice', { invoiceid })).toMatchObject({ status: 'Unpaid', balance: '7.99' });
    await call('AddInvoicePayment', { invoiceid, transid: 'part-2', amount: '7.99', gateway: 'sandbox', date: '2026-01-02 10:01:00' });
    const paid = await call('GetInvoice', { invoiceid });
    expect(paid).toMatchObject({ status: 'Paid', balance: '0.00' });
    expect(paid.transactions.transaction.map((row: Json) => row.transid)).toEqual(['part-1', 'part-2']);
  });

  it('AddInvoicePayment is NOT idempotent: the same transid twice is two transactions', async () => {
    const order = await addOrder('1', [{ pid: 1, cycle: 'monthly' }]);
    const payment = { invoiceid: String(order.invoiceid), transid: 'evt_same_twice', amount: '12.99', gateway: 'sandbox', date: '2026-01-02 10:00:00' };
    expect((await call('AddInvoicePayment', payment)).result).toBe('success');
    expect((await call('AddInvoicePayment', payment)).result).toBe('success');
    const transactions = await call('GetTransactions', { transid: 'evt_same_twice' });
    expect(transactions.totalresults).toBe(2);
    expect(transactions.transactions.transaction.map((row: Json) => row.amountin)).toEqual(['12.99', '12.99']);
    expect((await call('GetTransactions', { invoiceid: String(order.invoiceid) })).totalresults).toBe(2);
  });

  it('refuses a payment to a missing or cancelled invoice', async () => {
    expect(await call('AddInvoicePayment', { invoiceid: '99999', transid: 'x', gateway: 'sandbox', date: '2026-01-02 10:00:00' })).toEqual({ result: 'error', message: 'Invoice ID Not Found' });
    const order = await addOrder('1', [{ pid: 1, cycle: 'monthly' }]);
    await call('CancelOrder', { orderid: order.orderid });
    expect((await call('AddInvoicePayment', { invoiceid: String(order.invoiceid), transid: 'y', gateway: 'sandbox', date: '2026-01-02 10:00:00' })).message)
      .toBe('It is not possible to add a payment to an invoice that is Cancelled');
  });

  it('CreateInvoice bills the items given (an upsell) to the client', async () => {
    const created = await call('CreateInvoice', { userid: '1', paymentmethod: 'sandboxcrypto', sendinvoice: '0', itemdescription1: '2 extra connections', itemamount1: '8.00', itemdescription2: 'Proxy', itemamount2: '2.5' });
    expect(created.result).toBe('success');
    expect(created.status).toBe('Unpaid');
    const invoice = await call('GetInvoice', { invoiceid: String(created.invoiceid) });
    expect(invoice).toMatchObject({ userid: 1, total: '10.50', paymentmethod: 'sandboxcrypto', status: 'Unpaid' });
    expect(invoice.items.item.map((item: Json) => [item.description, item.amount])).toEqual([['2 extra connections', '8.00'], ['Proxy', '2.50']]);
    expect(await call('CreateInvoice', { userid: '99999', itemdescription1: 'x', itemamount1: '1' })).toEqual({ result: 'error', message: 'Client ID Not Found' });
  });

  it('UpdateInvoice cancels an unpaid invoice (the undo of CreateInvoice), and refuses a missing invoice or an unknown status', async () => {
    const created = await call('CreateInvoice', { userid: '1', paymentmethod: 'sandbox', itemdescription1: '1 extra connection', itemamount1: '4.00' });
    expect(await call('UpdateInvoice', { invoiceid: String(created.invoiceid), status: 'Cancelled' })).toEqual({ result: 'success', invoiceid: created.invoiceid });
    expect((await call('GetInvoice', { invoiceid: String(created.invoiceid) })).status).toBe('Cancelled');
    expect(await call('UpdateInvoice', { invoiceid: '99999', status: 'Cancelled' })).toEqual({ result: 'error', message: 'Invoice ID Not Found' });
    expect((await call('UpdateInvoice', { invoiceid: String(created.invoiceid), status: 'Gone' })).result).toBe('error');
    expect((await call('GetInvoice', { invoiceid: String(created.invoiceid) })).status).toBe('Cancelled');
  });
});

describe('services', () => {
  it('GetClientsProducts lists a client\'s services with plaintext password and custom fields {id,name,value}', async () => {
    const body = await call('GetClientsProducts', { clientid: '1', limitnum: '100' });
    expect(Number(body.totalresults)).toBeGreaterThanOrEqual(1);
    const seeded = (body.products.product as Json[]).find((service) => service.username === 'TV-10000001') as Json;
    expect(seeded).toMatchObject({ status: 'Active', password: '100000000001', billingcycle: 'Monthly', pid: '1', name: '1 Month' });
    for (const field of ['id', 'clientid', 'orderid', 'pid', 'name', 'domain', 'serverhostname', 'serverip', 'billingcycle', 'nextduedate', 'recurringamount', 'paymentmethod', 'status', 'username', 'password', 'notes']) {
      expect(seeded).toHaveProperty(field);
    }
    for (const field of seeded.customfields.customfield as Json[]) expect(Object.keys(field)).toEqual(expect.arrayContaining(['id', 'name', 'value']));
    for (const option of seeded.configoptions.configoption as Json[]) expect(Object.keys(option)).toEqual(expect.arrayContaining(['id', 'option', 'type', 'value']));
  });

  it('honours limitnum and limitstart', async () => {
    const all = await call('GetClientsProducts', { clientid: '1', limitnum: '1000' });
    const one = await call('GetClientsProducts', { clientid: '1', limitnum: '1' });
    expect(Number(all.totalresults)).toBeGreaterThan(1);
    expect(one.numreturned).toBe(1);
    expect(one.products.product).toHaveLength(1);
    expect(Number(one.totalresults)).toBe(Number(all.totalresults));
    const second = await call('GetClientsProducts', { clientid: '1', limitnum: '1', limitstart: '1' });
    expect(second.products.product[0].id).toBe(all.products.product[1].id);
  });

  it('answers products "" for a client without services', async () => {
    const clientid = await newClient();
    const body = await call('GetClientsProducts', { clientid, limitnum: '25' });
    expect(body.result).toBe('success');
    expect(body.products).toBe('');
    expect(Number(body.totalresults)).toBe(0);
  });

  it('UpdateClientProduct sets a custom field (MAC), notes and status; config options as {cid: {optionid, qty}}', async () => {
    const serviceid = String(whmcs.state.services.find((service) => service.username === 'TV-10000001')?.id);
    const updated = await call('UpdateClientProduct', {
      serviceid, customfields: phpSerializeBase64({ 13: '00:1A:79:12:34:56' }), notes: 'checked', configoptions: phpSerializeBase64({ 2: { optionid: 5, qty: 3 } }),
    });
    expect(updated.result).toBe('success');
    expect(Number(updated.serviceid)).toBe(Number(serviceid));
    const service = await serviceOf(serviceid);
    expect((service.customfields.customfield as Json[]).find((field) => field.id === 13)?.value).toBe('00:1A:79:12:34:56');
    expect(service.notes).toBe('checked');
    expect((service.configoptions.configoption as Json[]).find((option) => option.id === '2')?.value).toBe('3');
    expect(await call('UpdateClientProduct', { serviceid: '99999', notes: 'x' })).toEqual({ result: 'error', message: 'Service ID Not Found' });
  });

  it('ModuleCustom runs restart and answers the module\'s error for any other function', async () => {
    const serviceid = String(whmcs.state.services.find((service) => service.username === 'TV-10000001')?.id);
    expect(await call('ModuleCustom', { serviceid, func_name: 'restart' })).toEqual({ result: 'success' });
    const other = await call('ModuleCustom', { serviceid, func_name: 'reboot' });
    expect(other.result).toBe('error');
    expect(await call('ModuleCustom', { serviceid: '99999', func_name: 'restart' })).toEqual({ result: 'error', message: 'Service ID not found' });
  });

  it('ModuleCreate activates a Pending service; ModuleTerminate terminates it', async () => {
    const order = await addOrder('1', [{ pid: 1, cycle: 'monthly' }]);
    expect(await call('ModuleCreate', { serviceid: order.serviceids })).toEqual({ result: 'success' });
    expect((await serviceOf(order.serviceids)).status).toBe('Active');
    expect(await call('ModuleTerminate', { serviceid: order.serviceids })).toEqual({ result: 'success' });
    expect((await serviceOf(order.serviceids)).status).toBe('Terminated');
    expect(await call('ModuleCreate', { serviceid: '99999' })).toEqual({ result: 'error', message: 'Service ID not found' });
  });
});
