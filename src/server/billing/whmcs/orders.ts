import { and, asc, count, eq, gte } from 'drizzle-orm';
import { configOptionsOf } from '../../../domain/order-draft';
import { generateServicePassword, generateUsername } from '../../../domain/credentials';
import type { Currency } from '../../../domain/currency';
import { affiliateClicks, invoices, orders, services } from '../../db/schema';
import { conflict } from '../../http-error';
import { queueOrderReceipt, queueUpsellReceipt } from '../../mail/outbox';
import type { BillingPort, InvoiceRecord, NewOrder, OrderRecord, OrderStatus, PlacedOrder } from '../port';
import { afterMail, requestInProgress } from '../shared/idempotency';
import { insertPayment } from '../shared/payment-records';
import type { WhmcsCatalogue } from './catalogue';
import { requireId, text, toId, WhmcsRefusal } from './client';
import { money, type WhmcsBillingContext } from './context';
import type { WhmcsInvoices } from './invoices';
import { phpSerializeBase64, type PhpArray } from './php-serialize';
import type { WhmcsServices } from './services';
import type { WhmcsUnfinished } from './unfinished';

type OrderCalls = Pick<BillingPort,
  'ordersFromIpSince' | 'placeOrder' | 'order' | 'changeOrderStatus' | 'invoice' | 'createUpsellInvoice' | 'recordAffiliateClick'>;

type UpsellAnswer = { invoiceid: number; paymentId: string; amountCents: number; currency: Currency; deadline: string };

/** WHMCS invoiced another total than the quote: the order is undone, not kept for a retry (the shopper confirms a new total). */
class PriceChanged extends Error {
  constructor(readonly amount: number, readonly currency: Currency) {
    super('price changed');
  }
}

/** AddOrder's billingcycle values: lower case, hyphens and spaces removed, One Time as onetime. */
export const orderCycle = (cycle: string) => cycle.replace(/[-\s]/g, '').toLowerCase();

/** The WHMCS order a key's first attempt placed, as recorded in its claim. */
interface WhmcsOrderPlaced { orderId: number; invoiceId: number | null; serviceIds: number[] }
const whmcsOrderOf = (value: unknown): WhmcsOrderPlaced | null => {
  if (!value || typeof value !== 'object') return null;
  const row = value as Record<string, unknown>;
  const orderId = toId(row.orderId);
  if (orderId === null) return null;
  const serviceIds = Array.isArray(row.serviceIds) ? row.serviceIds.map(toId).filter((id): id is number => id !== null) : [];
  return { orderId, invoiceId: toId(row.invoiceId), serviceIds };
};

/** Orders placed in WHMCS (AddOrder) and upsell invoices made there (CreateInvoice), each once per Idempotency-Key, with their mirror rows. */
export function whmcsOrders(context: WhmcsBillingContext, parts: {
  catalogue: Pick<WhmcsCatalogue, 'product' | 'mirrorProducts'>; invoices: WhmcsInvoices; services: Pick<WhmcsServices, 'getService' | 'mirrorService'>; unfinished: WhmcsUnfinished;
}): OrderCalls {
  const { whmcs, db, config, clock } = context;
  const { product, mirrorProducts } = parts.catalogue;
  const { getInvoice, syncInvoice } = parts.invoices;
  const { getService, mirrorService } = parts.services;
  const { idempotent, undoNow, supersedeUndo, refuseUndone } = parts.unfinished;
  const mailed = afterMail(config);

  const readOrder = async (id: number): Promise<OrderRecord | null> => {
    const [order] = await db.select().from(orders).where(eq(orders.id, id));
    if (!order) return null;
    const [invoiceRow] = await db.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.orderId, id), eq(invoices.kind, 'order')));
    if (!invoiceRow) return null;
    const invoice = await syncInvoice(invoiceRow.id);
    const serviceRows = await db.select({ id: services.id }).from(services).where(eq(services.orderId, id)).orderBy(asc(services.id));
    let status: OrderStatus = order.status;
    // Cancelled or flagged in WHMCS by its operator: the order is what WHMCS says.
    if (status === 'Pending' && invoice?.status === 'Cancelled') {
      const first = serviceRows[0] ? await getService(serviceRows[0].id) : null;
      status = first?.status === 'Fraud' ? 'Fraud' : 'Cancelled';
      await db.update(orders).set({ status, fraud: status === 'Fraud' || order.fraud }).where(eq(orders.id, id));
    }
    return {
      id: order.id, clientId: order.clientId, kind: order.kind, status, fraud: order.fraud || status === 'Fraud', currency: order.currency,
      amountCents: order.amountCents, invoiceId: invoiceRow.id, invoiceStatus: invoice?.status ?? 'Unpaid', serviceIds: serviceRows.map((row) => row.id),
    };
  };

  /** The order placed in WHMCS (AddOrder), after the client's currency is checked. */
  const addWhmcsOrder = async (order: NewOrder): Promise<WhmcsOrderPlaced> => {
    // WHMCS invoices a client in its own currency only: an order in another would be invoiced at other figures.
    const details = await whmcs.read('GetClientsDetails', { clientid: order.clientId });
    const clientCurrency = text((details.client as Record<string, unknown> | undefined)?.currency_code ?? details.currency_code);
    if (clientCurrency && clientCurrency !== order.currency) {
      throw conflict('currency_not_offered', `Your account is billed in ${clientCurrency}. Please order in ${clientCurrency}.`);
    }
    const items = await Promise.all(order.items.map(async (item) => ({ item, product: await product(item.pid) })));
    const gateway = order.payment?.gateway ?? config.gateways[0] ?? 'sandbox';
    const added = await whmcs.write('AddOrder', {
      clientid: order.clientId,
      paymentmethod: gateway,
      pid: items.map(({ item }) => item.pid),
      billingcycle: items.map(({ item }) => orderCycle(item.billingcycle)),
      configoptions: items.map(({ item, product: found }) => phpSerializeBase64(found ? configOptionsOf(found, item) as PhpArray : {})),
      // Our generated credentials, in the product's Username and Password custom fields.
      customfields: items.map(({ product: found }) => {
        const fields: Record<number, string> = {};
        if (found?.customFields.username) fields[found.customFields.username] = generateUsername();
        if (found?.customFields.password) fields[found.customFields.password] = generateServicePassword();
        return phpSerializeBase64(fields);
      }),
      promocode: order.promocode ?? undefined,
      affid: order.affid ?? undefined,
      clientip: order.ip,
      noemail: true,
    });
    return {
      orderId: requireId(added.orderid, 'AddOrder', 'orderid'), invoiceId: toId(added.invoiceid),
      serviceIds: text(added.serviceids ?? added.productids).split(',').map((id) => toId(id)).filter((id): id is number => id !== null),
    };
  };

  return {
    async ordersFromIpSince(ip, since) {
      const [row] = await db.select({ total: count() }).from(orders).where(and(eq(orders.ip, ip), gte(orders.createdAt, since)));
      return row?.total ?? 0;
    },

    placeOrder: (order, claim) => idempotent<PlacedOrder>(claim, async ({ progress, record, keepUnfinished }) => {
      // A retry of a key whose first attempt WHMCS took: that order is finished, never placed again.
      let placed = whmcsOrderOf(progress.whmcsOrder);
      if (placed) await refuseUndone(claim, 'CancelOrder', placed.orderId);
      else placed = await addWhmcsOrder(order);
      const { orderId, serviceIds } = placed;
      try {
        const invoiceId = requireId(placed.invoiceId, 'AddOrder', 'invoiceid');
        // AddOrder drops an inapplicable promotion silently: WHMCS's total must be our quote, or the order is undone.
        const invoice = await getInvoice(invoiceId);
        if (!invoice) throw new WhmcsRefusal('GetInvoice', `invoice ${invoiceId} of order ${orderId} not found`);
        if (invoice.totalCents !== order.amountCents) {
          await undoNow('CancelOrder', orderId, 'price_changed');
          const amount = invoice.totalCents / 100;
          throw new PriceChanged(amount, order.currency);
        }
        // FraudOrder again on a retry is harmless: it sets the same status.
        if (order.fraud) await whmcs.write('FraudOrder', { orderid: orderId, cancelsub: true });
        const status: OrderStatus = order.fraud ? 'Fraud' : 'Pending';
        const placedAt = clock.now();
        const body = await db.transaction(async (tx) => {
          if (!(await supersedeUndo(tx, 'CancelOrder', orderId))) throw requestInProgress();
          await mirrorProducts(tx, order.items.map((item) => item.pid));
          await tx.insert(orders).values({
            id: orderId, clientId: order.clientId, kind: order.kind, status, fraud: order.fraud, ip: order.ip, country: order.country,
            currency: order.currency, amountCents: order.amountCents, promocode: order.promocode, discountCents: order.discountCents ?? 0, affid: order.affid, locale: order.locale, createdAt: placedAt,
            recoveryReminders: typeof order.recoveryAfterMs === 'number',
          });
          if (serviceIds.length > 0) {
            await tx.insert(services).values(serviceIds.map((id, index) => ({
              id, clientId: order.clientId, orderId, pid: order.items[index]?.pid ?? order.items[0]?.pid ?? 0, billingcycle: order.items[index]?.billingcycle ?? 'Monthly',
              status, serverHostname: config.serverHostname, extraConnections: order.items[index]?.extraConnection ? 1 : 0,
              proxyProtection: order.items[index]?.proxyProtection ?? false,
            })));
          }
          const [mirrored] = await tx.insert(invoices).values({
            id: invoiceId, clientId: order.clientId, kind: 'order', orderId, status: order.fraud ? 'Cancelled' : 'Unpaid', currency: order.currency, amountCents: order.amountCents,
            createdAt: placedAt,
          }).returning();
          if (!mirrored) throw new Error('Invoice mirror was not written');
          const payment = order.payment ? await insertPayment(tx, mirrored, order.payment.gateway, order.payment.expiresAt) : null;
          if (payment && !order.fraud) {
            await queueOrderReceipt(tx, {
              orderId, invoiceId, clientId: order.clientId, kind: order.kind, items: order.items, promocode: order.promocode,
              amountCents: order.amountCents, currency: order.currency, deadline: payment.expiresAt, locale: order.locale,
              reminderDueAt: typeof order.recoveryAfterMs === 'number' ? new Date(placedAt.getTime() + order.recoveryAfterMs) : null,
            });
          }
          const answer = {
            orderid: orderId, invoiceid: invoiceId, serviceids: serviceIds, fraud: order.fraud, status, amount: order.amountCents / 100,
            currency: order.currency, paymentId: payment?.id ?? null, deadline: payment?.expiresAt.toISOString() ?? null,
          };
          await record(tx, answer);
          return answer;
        });
        return body;
      } catch (error) {
        if (error instanceof PriceChanged) throw conflict('price_changed', `The price is now ${error.amount.toFixed(2)} ${error.currency}. Please confirm the new total.`, { amount: error.amount, currency: error.currency });
        await keepUnfinished({ whmcsOrder: placed }, 'CancelOrder', orderId);
        throw error;
      }
    }).then(mailed),

    order: readOrder,

    async changeOrderStatus(id, from, to) {
      const current = await readOrder(id);
      if (!current || !from.includes(current.status)) return null;
      try {
        await whmcs.write(to === 'Fraud' ? 'FraudOrder' : 'CancelOrder', { orderid: id, cancelsub: true, ...(to === 'Cancelled' ? { noemail: true } : {}) });
      } catch (error) {
        // WHMCS cancels only a Pending order; a flagged one already has its services and invoice cancelled there (it stays Fraud in WHMCS).
        if (!(current.status === 'Fraud' && to === 'Cancelled' && error instanceof WhmcsRefusal && /not pending/i.test(error.whmcsMessage))) throw error;
      }
      await db.transaction(async (tx) => {
        await tx.update(orders).set({ status: to, ...(to === 'Fraud' ? { fraud: true } : {}) }).where(eq(orders.id, id));
        await tx.update(services).set({ status: to }).where(eq(services.orderId, id));
        await tx.update(invoices).set({ status: 'Cancelled' }).where(and(eq(invoices.orderId, id), eq(invoices.status, 'Unpaid')));
      });
      return readOrder(id);
    },

    async invoice(id) {
      const row = await syncInvoice(id);
      if (!row) return null;
      const { clientId, kind, orderId, serviceId, status, currency, amountCents } = row;
      return { id, clientId, kind, orderId, serviceId, status, currency, amountCents } satisfies InvoiceRecord;
    },

    createUpsellInvoice: (input, claim) => idempotent<UpsellAnswer>(claim, async ({ progress, record, keepUnfinished }) => {
      const service = await getService(input.serviceId);
      if (!service || !(await mirrorService(service))) throw new WhmcsRefusal('GetClientsProducts', `service ${input.serviceId} cannot be mirrored`);
      // A retry of a key whose first attempt WHMCS took: that invoice gets its link, no second one is made.
      let invoiceId = toId(progress.whmcsInvoice);
      if (invoiceId !== null) await refuseUndone(claim, 'CancelInvoice', invoiceId);
      else {
        const created = await whmcs.write('CreateInvoice', {
          userid: input.clientId, paymentmethod: input.payment.gateway, status: 'Unpaid', sendinvoice: false,
          itemdescription1: `Extra connections x${input.quantity} for service #${input.serviceId}`, itemamount1: money(input.amountCents), itemtaxed1: false,
        });
        invoiceId = requireId(created.invoiceid, 'CreateInvoice', 'invoiceid');
      }
      const whmcsInvoice = invoiceId;
      try {
        return await db.transaction(async (tx) => {
          if (!(await supersedeUndo(tx, 'CancelInvoice', whmcsInvoice))) throw requestInProgress();
          const [invoice] = await tx.insert(invoices).values({
            id: whmcsInvoice, clientId: input.clientId, kind: 'upsell', serviceId: input.serviceId, extraQuantity: input.quantity, status: 'Unpaid', currency: input.currency, amountCents: input.amountCents,
            createdAt: clock.now(),
          }).returning();
          if (!invoice) throw new Error('Invoice mirror was not written');
          const payment = await insertPayment(tx, invoice, input.payment.gateway, input.payment.expiresAt);
          await queueUpsellReceipt(tx, {
            invoiceId: whmcsInvoice, clientId: input.clientId, serviceId: input.serviceId, quantity: input.quantity, amountCents: invoice.amountCents,
            currency: invoice.currency, deadline: payment.expiresAt, locale: input.locale,
          });
          const body = { invoiceid: whmcsInvoice, paymentId: payment.id, amountCents: invoice.amountCents, currency: invoice.currency, deadline: payment.expiresAt.toISOString() };
          await record(tx, body);
          return body;
        });
      } catch (error) {
        await keepUnfinished({ whmcsInvoice }, 'CancelInvoice', whmcsInvoice);
        throw error;
      }
    }).then(mailed),

    async recordAffiliateClick({ affId, referer, ip }) {
      await db.insert(affiliateClicks).values({ affId, referer, ip });
    },
  };
}
