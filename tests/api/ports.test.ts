import { afterEach, describe, expect, it } from 'vitest';
import type { BillingPort } from '../../src/server/billing/port';
import type { Clock } from '../../src/server/clock';
import type { Envelope, MailTransport } from '../../src/server/mail/transport';
import { localBilling } from '../../src/server/ports';
import { createTestApp, guest, placeOrder, type TestApp } from './helper';

// Ports handed to the app in place of the ones the environment names, as a test or a deployment needs.
describe('ports given to the app', () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  it('acts on the clock it is given: a new order is due one day after the clock\'s time (spec: payment deadline 1 day)', async () => {
    const fixed = new Date('2031-05-04T10:00:00.000Z');
    const clock: Clock = { now: () => fixed };
    t = await createTestApp({}, { ports: { clock } });
    const order = await placeOrder(await guest(t.app));
    expect(order.deadline).toBe('2031-05-05T10:00:00.000Z');
  });

  it('calls the billing it is given for every order', async () => {
    const placed: number[] = [];
    t = await createTestApp({}, {
      ports: {
        billing: (context) => {
          const local = localBilling(context);
          return { ...local, placeOrder: async (order, claim) => { placed.push(order.clientId); return local.placeOrder(order, claim); } } satisfies BillingPort;
        },
      },
    });
    const browser = await guest(t.app);
    await placeOrder(browser);
    await placeOrder(browser);
    expect(placed).toEqual([browser.userid, browser.userid]);
  });

  it('sends the mail through the mailer it is given, with no SMTP_URL set', async () => {
    const sent: Envelope[] = [];
    const mailer: MailTransport = { send: async (envelope) => { sent.push(envelope); }, close: () => {} };
    t = await createTestApp({ MAIL_POLL_MS: '50' }, { ports: { mailer } });
    const browser = await guest(t.app);
    const order = await placeOrder(browser);
    await expect.poll(() => sent.length, { timeout: 5000 }).toBe(1);
    expect(sent[0]?.to).toBe(browser.email);
    expect(sent[0]?.text).toContain(`Invoice: ${order.invoiceid}`);
  });
});
