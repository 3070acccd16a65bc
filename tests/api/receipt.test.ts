/**
 * The receipt of the waiting and success pages (issue 16, Build 3): what the invoice bills (plan, cycle,
 * add-ons), the promotion's code and discount, the invoice's dates and the payment method, from the
 * server's records (the status answers the pages read), on the local billing and on WHMCS alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutFact } from '../facts/prices';
import { Browser, createTestApp, guest, guestWithOrder, payOnSandbox, placeOrder, storeSnapshot, verifiedAccount, type OrderResponse, type TestApp } from './helper';

describe('the receipt the waiting and success pages read', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const receiptOfOrder = async (browser: Browser, order: OrderResponse) => {
    const answer = await browser.call('getOrderStatus', { query: { orderid: String(order.orderid) } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.receipt;
  };
  const invoiceStatus = async (browser: Browser, invoiceid: number) => {
    const answer = await browser.call('getInvoiceStatus', { query: { invoiceid: String(invoiceid) } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  /** The gateway as the gateway list names it to the same shopper. */
  const listedName = async (browser: Browser, module: string) => {
    const answer = await browser.call('getGateway', { query: {} });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.paymentmethods.paymentmethod.find((gateway) => gateway.module === module)?.displayname;
  };

  it('a WELCOME10 order (1 Month + extra connection, EUR): the code and its 1.70 discount, the total 15.29, the invoice date and the sandbox card gateway', async () => {
    const fact = checkoutFact({ pid: 1, extraConnection: true, proxyProtection: false, promo: 'WELCOME10', currency: 'EUR' });
    expect([fact.discount, fact.total]).toEqual([1.7, 15.29]);
    const before = Date.now();
    const { browser, order } = await guestWithOrder(t.app, { pid: 1, promocode: 'WELCOME10', configoptions: { '2': 1 }, amount: fact.total });
    const after = Date.now();
    const receipt = await receiptOfOrder(browser, order);
    const name = await listedName(browser, 'sandbox');
    expect(name).toBeTruthy();
    expect(receipt).toEqual({
      lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 1, proxyProtection: false }],
      promocode: 'WELCOME10',
      discount: fact.discount,
      date: expect.any(String),
      datepaid: null,
      paymentmethod: { module: 'sandbox', displayname: name },
    });
    // The invoice was made while the order was placed (a second of slack for the store's clock).
    expect(Date.parse(receipt.date)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(receipt.date)).toBeLessThanOrEqual(after + 1_000);
    // The invoice read (what the success page asks) gives the same receipt and the total.
    const invoice = await invoiceStatus(browser, order.invoiceid);
    expect(invoice).toMatchObject({ amount: fact.total, currency: 'EUR', receipt });
  });

  it('asked in German (?locale=de-de) the receipt names the plan and the payment method as the catalogue file translates them (1 Monat, Karte); in en-gb, untranslated, the default names', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    const inLocale = async (locale: 'de-de' | 'en-gb') => {
      const byOrder = await browser.call('getOrderStatus', { query: { orderid: String(order.orderid), locale } });
      const byInvoice = await browser.call('getInvoiceStatus', { query: { invoiceid: String(order.invoiceid), locale } });
      expect(byInvoice.body.receipt).toEqual(byOrder.body.receipt);
      return byOrder.body.receipt;
    };
    const german = await inLocale('de-de');
    expect([german.lines[0]?.name, german.paymentmethod?.displayname]).toEqual(['1 Monat', 'Karte']);
    const british = await inLocale('en-gb');
    expect([british.lines[0]?.name, british.paymentmethod?.displayname]).toEqual(['1 Month', 'Card']);
  });

  it('the success page\'s service is named in the shopper\'s language too (getClientProducts ?locale=de-de: 1 Monat; left out: 1 Month)', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    await payOnSandbox(t.app, order.link);
    const serviceid = String(order.serviceids[0]);
    const german = await browser.call('getClientProducts', { query: { serviceid, locale: 'de-de' } });
    expect(german.status, german.text).toBe(200);
    expect(german.body.name).toBe('1 Monat');
    expect((await browser.call('getClientProducts', { query: { serviceid } })).body.name).toBe('1 Month');
  });

  it('once paid the receipt keeps its lines, code and discount and gains the date paid; the invoice date does not move', async () => {
    const fact = checkoutFact({ pid: 1, extraConnection: false, proxyProtection: true, promo: 'SAVE5', currency: 'EUR' });
    expect([fact.discount, fact.total]).toEqual([5, 10.49]);
    const { browser, order } = await guestWithOrder(t.app, { pid: 1, promocode: 'SAVE5', configoptions: { '4': 1 }, amount: fact.total });
    const unpaid = await receiptOfOrder(browser, order);
    const beforePay = Date.now();
    await payOnSandbox(t.app, order.link);
    const paid = await invoiceStatus(browser, order.invoiceid);
    expect(paid).toMatchObject({ status: 'Paid', amount: 10.49, currency: 'EUR' });
    expect(paid.receipt).toEqual({ ...unpaid, datepaid: expect.any(String) });
    expect(paid.receipt).toMatchObject({
      lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 0, proxyProtection: true }], promocode: 'SAVE5', discount: 5, date: unpaid.date,
    });
    expect(Date.parse(paid.receipt.datepaid!)).toBeGreaterThanOrEqual(beforePay - 1_000);
    expect(Date.parse(paid.receipt.datepaid!)).toBeGreaterThanOrEqual(Date.parse(paid.receipt.date));
    // The order's status read says the same.
    expect(await receiptOfOrder(browser, order)).toEqual(paid.receipt);
  });

  it('an order without a promotion: no code and a discount of 0', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    expect(await receiptOfOrder(browser, order)).toMatchObject({ promocode: null, discount: 0, datepaid: null, paymentmethod: { module: 'sandbox' } });
  });

  it('paid on another gateway than the first link\'s: the receipt names the gateway that was paid on', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    const crypto = await browser.call('coinbase', { body: { invoiceid: order.invoiceid, paymentmethod: 'sandboxcrypto', amount: 12.99, currency: 'EUR' } });
    expect(crypto.status, crypto.text).toBe(200);
    expect((await receiptOfOrder(browser, order)).paymentmethod).toEqual({ module: 'sandboxcrypto', displayname: await listedName(browser, 'sandboxcrypto') });
    // The first link (card) is the one paid: the receipt follows the money, not the latest link.
    await payOnSandbox(t.app, order.link);
    expect((await receiptOfOrder(browser, order)).paymentmethod).toEqual({ module: 'sandbox', displayname: await listedName(browser, 'sandbox') });
  });

  it('an upsell invoice: the extra connections, no promotion, discount 0', async () => {
    const account = await verifiedAccount(t);
    const order = await placeOrder(account, { pid: 1, amount: 12.99 });
    await payOnSandbox(t.app, order.link);
    const upsell = await account.call('addInvoice', { body: { serviceId: order.serviceids[0]!, extraQuantity: 2, paymentmethod: 'sandbox', price: 8, currency: 'EUR' } });
    expect(upsell.status, upsell.text).toBe(200);
    const invoice = await invoiceStatus(account, upsell.body.invoiceid);
    expect(invoice).toMatchObject({ kind: 'upsell', amount: 8, currency: 'EUR' });
    expect(invoice.receipt).toEqual({
      lines: [{ pid: 1, name: '1 Month', billingcycle: 'Monthly', extraConnections: 2, proxyProtection: false }],
      promocode: null, discount: 0, date: expect.any(String), datepaid: null, paymentmethod: { module: 'sandbox', displayname: await listedName(account, 'sandbox') },
    });
  });

  it('another shopper reading a paid order\'s receipt gets 403 and no receipt; without a session 401; nothing changes', async () => {
    const { order } = await guestWithOrder(t.app, { pid: 1, promocode: 'WELCOME10', amount: checkoutFact({ pid: 1, extraConnection: false, proxyProtection: false, promo: 'WELCOME10', currency: 'EUR' }).total });
    await payOnSandbox(t.app, order.link);
    const stranger = await guest(t.app);
    const before = await storeSnapshot(t.db);
    for (const answer of [
      await stranger.call('getInvoiceStatus', { query: { invoiceid: String(order.invoiceid) } }),
      await stranger.call('getOrderStatus', { query: { orderid: String(order.orderid) } }),
    ]) {
      expect(answer.status, answer.text).toBe(403);
      expect(answer.body).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
      expect(answer.text).not.toContain('WELCOME10');
    }
    const anonymous = await new Browser(t.app).call('getInvoiceStatus', { query: { invoiceid: String(order.invoiceid) } });
    expect(anonymous.status).toBe(401);
    expect(await storeSnapshot(t.db)).toEqual(before);
  });
});
