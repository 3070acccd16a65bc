import { eq } from 'drizzle-orm';
import { EXTRA_CONNECTION_OPTION_ID } from '../../../domain/constants';
import { clients, invoices, orders, payments, services } from '../../db/schema';
import { queueServiceActive } from '../../mail/outbox';
import type { BillingPort, IdempotencyClaim, SettleResult } from '../port';
import { hasAnswer, recordAnswer, recordProgress, takeClaim, yieldClaim } from '../shared/idempotency';
import { hasConfirmingPayment, insertPayment, readInvoiceProgress, readPayment, recordPaymentEvent } from '../shared/payment-records';
import type { WhmcsCatalogue } from './catalogue';
import { WhmcsRefusal } from './client';
import { money, type WhmcsBillingContext } from './context';
import type { WhmcsInvoices } from './invoices';
import { phpSerializeBase64 } from './php-serialize';
import type { WhmcsServices } from './services';

type PaymentCalls = Pick<BillingPort, 'createPayment' | 'payment' | 'invoiceProgress' | 'paymentConfirming' | 'settlePayment'>;

/** The claim scope of applying a payment in WHMCS (AddInvoicePayment, then AcceptOrder or UpdateClientProduct); its key is the payment id. */
export const APPLY_PAYMENT_SCOPE = 'whmcs-apply-payment';

/** Payment links live in the checkout's store; a verified payment is recorded there first, then applied in WHMCS. */
export function whmcsPayments(
  context: WhmcsBillingContext, catalogue: Pick<WhmcsCatalogue, 'subOption'>, { getInvoice, syncInvoice }: WhmcsInvoices, { getService }: Pick<WhmcsServices, 'getService'>,
) {
  const { whmcs, db, config, clock } = context;

  /**
   * Applies a payment in WHMCS, exactly once: the intent (payment Paid in the store) is committed first; then a claim per
   * payment serialises instances; WHMCS's own transactions are checked for the transid before AddInvoicePayment.
   */
  const applyPaymentInWhmcs = async (paymentId: string) => {
    const claim: IdempotencyClaim = { scope: APPLY_PAYMENT_SCOPE, key: paymentId, requestHash: '' };
    const state = await takeClaim<unknown>(db, claim, false);
    if (!state.mine) return;
    try {
      const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
      if (!payment || payment.status !== 'Paid') throw new Error(`Payment ${paymentId} is not recorded as paid`);
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, payment.invoiceId));
      if (!invoice) throw new Error(`Invoice ${payment.invoiceId} has no mirror row`);
      const inWhmcs = await getInvoice(invoice.id);
      if (!inWhmcs) throw new WhmcsRefusal('GetInvoice', `invoice ${invoice.id} not found`);
      if (inWhmcs.status !== 'Paid' && !inWhmcs.transids.includes(paymentId)) {
        await whmcs.write('AddInvoicePayment', { invoiceid: invoice.id, transid: paymentId, amount: money(payment.amountCents), gateway: payment.gateway });
      }
      if (invoice.kind === 'upsell' && invoice.serviceId) {
        // The quantity after this invoice, fixed once and recorded in the claim before WHMCS is changed: a retry after
        // an unknown outcome sets the same quantity again instead of adding the invoice's a second time.
        let quantity = typeof state.progress.quantity === 'number' ? state.progress.quantity : null;
        if (quantity === null) {
          const service = await getService(invoice.serviceId);
          if (!service) throw new WhmcsRefusal('GetClientsProducts', `service ${invoice.serviceId} not found`);
          quantity = service.extraConnections + invoice.extraQuantity;
          await recordProgress(db, claim, { quantity });
        }
        const sub = await catalogue.subOption(EXTRA_CONNECTION_OPTION_ID);
        // A quantity option is set as {cid: {optionid, qty}} (UpdateClientProduct docs).
        const value = sub === undefined ? quantity : { optionid: sub, qty: quantity };
        await whmcs.write('UpdateClientProduct', { serviceid: invoice.serviceId, configoptions: phpSerializeBase64({ [EXTRA_CONNECTION_OPTION_ID]: value }) });
        await db.transaction(async (tx) => {
          await tx.update(services).set({ extraConnections: quantity as number }).where(eq(services.id, invoice.serviceId as number));
          await recordAnswer(tx, claim, { applied: true });
        });
        return;
      }
      if (invoice.orderId) {
        const orderId = invoice.orderId;
        try {
          await whmcs.write('AcceptOrder', { orderid: orderId, autosetup: true, sendemail: false });
        } catch (error) {
          // Accepted before (a retry after a crash): an order no longer Pending is what we wanted.
          if (!(error instanceof WhmcsRefusal && /not pending/i.test(error.whmcsMessage))) throw error;
        }
        const serviceRows = await db.select({ id: services.id }).from(services).where(eq(services.orderId, orderId));
        const read = await Promise.all(serviceRows.map((row) => getService(row.id)));
        await db.transaction(async (tx) => {
          await tx.update(orders).set({ status: 'Active' }).where(eq(orders.id, orderId));
          for (const service of read) if (service) await tx.update(services).set({ status: service.status === 'Pending' ? 'Active' : service.status }).where(eq(services.id, service.id));
          const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
          if (order?.kind === 'reseller') await tx.update(clients).set({ reseller: true }).where(eq(clients.id, order.clientId));
          await queueServiceActive(tx, orderId);
          await recordAnswer(tx, claim, { applied: true });
        });
        config.mailQueued?.();
        return;
      }
      // A renewal: WHMCS itself moves the service's due date one cycle on and unsuspends it when the invoice is paid.
      await recordAnswer(db, claim, { applied: true });
    } catch (error) {
      await yieldClaim(db, claim).catch(() => undefined);
      throw error;
    }
  };

  /** A payment recorded here but not yet applied in WHMCS (a crash or an outage in between) is applied now. */
  const applyIfPending = async (paymentId: string | null) => {
    if (!paymentId) return;
    const [payment] = await db.select({ status: payments.status }).from(payments).where(eq(payments.id, paymentId));
    if (payment?.status !== 'Paid') return;
    if (await hasAnswer(db, { scope: APPLY_PAYMENT_SCOPE, key: paymentId })) return;
    await applyPaymentInWhmcs(paymentId);
  };

  const calls: PaymentCalls = {
    async createPayment({ invoiceId, gateway, expiresAt }) {
      const invoice = await syncInvoice(invoiceId);
      if (!invoice) throw new Error(`Invoice ${invoiceId} not found`);
      const payment = await insertPayment(db, invoice, gateway, expiresAt);
      const found = await readPayment(db, payment.id);
      if (!found) throw new Error('Payment was not created');
      return found;
    },

    invoiceProgress: (invoiceId, now) => readInvoiceProgress(db, invoiceId, now),

    paymentConfirming: (invoiceId) => hasConfirmingPayment(db, invoiceId),

    payment: async (id) => {
      const found = await readPayment(db, id);
      if (!found) return null;
      // The invoice's status is WHMCS's (an operator may have cancelled it there).
      const invoice = await syncInvoice(found.invoiceId);
      return invoice ? { ...found, invoiceStatus: invoice.status } : found;
    },

    async settlePayment(gateway, event) {
      // WHMCS's word on the invoice before deciding (a closed invoice makes the payment an exception).
      const [known] = await db.select({ invoiceId: payments.invoiceId }).from(payments).where(eq(payments.id, event.paymentId));
      if (known) await syncInvoice(known.invoiceId);
      const result = await db.transaction(async (tx): Promise<SettleResult & { apply: string | null }> => {
        // The intent (invoice Paid in the mirror) is committed before WHMCS is called, so a crash or an outage leaves it to the next delivery.
        const recorded = await recordPaymentEvent(tx, gateway, event, clock.now());
        const applies = recorded.result.outcome === 'duplicate' || recorded.result.outcome === 'already_applied' || recorded.result.outcome === 'paid';
        return { ...recorded.result, apply: applies ? recorded.paymentId : null };
      });
      // Not yet in WHMCS (this delivery's, or one a crash or an outage left): applied now; a failure answers 503 so the provider delivers again.
      await applyIfPending(result.apply);
      const { apply: _applied, ...settled } = result;
      return settled;
    },
  };

  return { calls, applyPayment: applyPaymentInWhmcs };
}
