/**
 * The sandbox card page, as a provider's test mode documents it: 4242 4242 4242 4242 pays, 4000 0000 0000 0002
 * is declined, 4000 0025 0000 3155 asks to confirm the payment first; any future expiry and any 3 digits pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, guestWithOrder, linkPath, storeSnapshot, createTestApp, type TestApp } from './helper';

/** The server's day: 10 March 2030 (ahead of the wall clock, so links made on it are live). */
const TODAY = new Date('2030-03-10T12:00:00.000Z');

describe('the sandbox card page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { ports: { clock: { now: () => TODAY } } });
  });
  afterAll(async () => t?.close());

  const statusOf = (browser: Browser, orderid: number) => browser.call('getOrderStatus', { query: { orderid: String(orderid) } });
  const submit = (link: string | null | undefined, fields: Record<string, string>) => new Browser(t.app).request({
    method: 'POST', url: linkPath(link), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
  });
  const card = (number: string, expiry = '03 / 30', cvc = '123') => ({ card: number, expiry, cvc, decision: 'card' });

  it('shows whom the shopper pays, the amount and what it pays for, and the "no money moves" notice', async () => {
    const { order } = await guestWithOrder(t.app, { pid: 1, configoptions: { '2': 1 }, amount: 16.99 });
    const page = await new Browser(t.app).request({ method: 'GET', url: linkPath(order.link) });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<span>TV Checkout Demo Ltd.</span>');
    expect(page.text).toContain('<img src="/checkout/demo/logo.svg" alt=""');
    expect(page.text).toContain('<span class="visually-hidden">Amount to pay: </span>€16.99');
    expect(page.text).toContain('<li><span>1 Month, per month</span></li><li><span>1 extra connection</span></li>');
    expect(page.text).toContain('Demo — no money moves');
    expect(page.text).toContain('<label for="card">Card number</label>');
    expect(page.text).not.toMatch(/src="https?:/);
  });

  it('4242 4242 4242 4242 pays: back to the checkout, the order Active', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    const paid = await submit(order.link, card('4242 4242 4242 4242'));
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe('/checkout/waiting');
    expect((await statusOf(browser, order.orderid)).body).toMatchObject({ status: 'Active', invoiceStatus: 'Paid', payment: { status: 'Paid', gateway: 'sandbox' } });
  });

  it('4000 0000 0000 0002 is declined: back to the checkout, the payment Declined, the order still Pending', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    const declined = await submit(order.link, card('4000000000000002'));
    expect(declined.status).toBe(303);
    expect((await statusOf(browser, order.orderid)).body).toMatchObject({ status: 'Pending', invoiceStatus: 'Unpaid', payment: { status: 'Declined', gateway: 'sandbox' } });
  });

  it('4000 0025 0000 3155 asks to confirm the payment first, changing nothing; confirming pays', async () => {
    const { browser, order } = await guestWithOrder(t.app);
    const before = await storeSnapshot(t.db);
    const step = await submit(order.link, card('4000 0025 0000 3155'));
    expect(step.status).toBe(200);
    expect(step.text).toContain('<h2 id="panel-heading">Confirm your payment</h2>');
    expect(step.text).toContain('the card ending in 3155');
    expect(await storeSnapshot(t.db)).toEqual(before);
    const confirmed = await submit(order.link, { decision: 'pay' });
    expect(confirmed.status).toBe(303);
    expect((await statusOf(browser, order.orderid)).body).toMatchObject({ status: 'Active', payment: { status: 'Paid' } });
  });

  it('any future expiry (this month included) and any 3 digits pass', async () => {
    for (const [expiry, cvc] of [['03 / 30', '000'], ['0330', '999'], ['12/2031', '555']]) {
      const { browser, order } = await guestWithOrder(t.app);
      expect((await submit(order.link, card('4242424242424242', expiry, cvc))).status, `${expiry} ${cvc}`).toBe(303);
      expect((await statusOf(browser, order.orderid)).body).toMatchObject({ status: 'Active' });
    }
  });

  it('a wrong card, a past or malformed expiry, a short code: 400, each error tied to its field, nothing changed', async () => {
    const { order } = await guestWithOrder(t.app);
    const before = await storeSnapshot(t.db);
    const cases: Array<[Record<string, string>, Record<string, string>]> = [
      [card('5555 5555 5555 4444'), { card: 'This sandbox takes only its test cards, listed below.' }],
      [card('4242 4242'), { card: 'The card number has 16 digits.' }],
      [card('', '', ''), { card: 'Enter the card number.', expiry: 'Enter the expiry date.', cvc: 'Enter the security code.' }],
      [card('4242424242424242', '02 / 30'), { expiry: 'The expiry date is in the past.' }],
      [card('4242424242424242', '13 / 31'), { expiry: 'The expiry month is between 01 and 12.' }],
      [card('4242424242424242', '03 / 30', '12'), { cvc: 'The security code has 3 digits.' }],
    ];
    for (const [fields, errors] of cases) {
      const answer = await submit(order.link, fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      for (const [field, message] of Object.entries(errors)) {
        expect(answer.text).toContain(`<p class="error" id="${field}-error">${message}</p>`);
        expect(answer.text).toMatch(new RegExp(`<input id="${field}"[^>]*aria-describedby="[^"]*${field}-error"[^>]*aria-invalid="true"`));
      }
      // The first field in error takes the focus; what was typed stays in the form.
      expect(answer.text).toMatch(new RegExp(`<input id="${Object.keys(errors)[0]}"[^>]*autofocus`));
      expect(answer.text).toContain(`value="${fields.card}"`);
    }
    expect(await storeSnapshot(t.db)).toEqual(before);
  });

  it('a test card link fills the form: its number, a future expiry, a code', async () => {
    const { order } = await guestWithOrder(t.app);
    const page = await new Browser(t.app).request({ method: 'GET', url: `${linkPath(order.link)}?card=4000002500003155` });
    expect(page.text).toMatch(/<input id="card" name="card" value="4000 0025 0000 3155"/);
    expect(page.text).toMatch(/<input id="expiry" name="expiry" value="12 \/ 31"/);
    expect(page.text).toMatch(/<input id="cvc" name="cvc" value="123"/);
  });

  it('a crypto gateway shows its wallet, not a card form, and refuses a card', async () => {
    const { order } = await guestWithOrder(t.app, { paymentmethod: 'sandboxcrypto' });
    const page = await new Browser(t.app).request({ method: 'GET', url: linkPath(order.link) });
    expect(page.text).not.toContain('Card number');
    expect(page.text).toContain('<button type="submit" name="decision" value="confirm_later">Pay, confirm later</button>');
    const before = await storeSnapshot(t.db);
    expect((await submit(order.link, card('4242424242424242'))).status).toBe(400);
    expect(await storeSnapshot(t.db)).toEqual(before);
  });
});
