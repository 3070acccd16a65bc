import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, gte, inArray, sql } from 'drizzle-orm';
import { generateServicePassword, generateUsername } from '../../domain/credentials';
import { isCurrency, type Currency, type CurrencyRate } from '../../domain/currency';
import { MESSAGE_TEXTS } from '../../domain/messages';
import type { Database } from '../db/connect';
import { queueOrderReceipt, queueServiceActive, queueUpsellReceipt } from '../mail/outbox';
import { affiliateClicks, clients, configOptions, currencies, gatewayNames, idempotencyKeys, invoices, orders, paymentExceptions, payments, products, promotions, services, webhookEvents } from '../db/schema';
import { conflict, unprocessable } from '../http-error';
import { decryptSecret, encryptSecret } from '../secrets';
import { closedInvoiceReason } from './port';
import type {
  BillingPort, CatalogueProduct, Client, IdempotencyClaim, InvoiceRecord, OrderRecord, PaymentExceptionReason, PaymentRecord,
  ServiceRecord, SettleResult, StoredAnswer,
} from './port';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
type Executor = Database | Transaction;

const newPaymentId = () => `pay_${randomBytes(18).toString('base64url')}`;
const cents = (amountCents: number) => amountCents / 100;

/** The billing port over the local store (PGlite or PostgreSQL through Drizzle). */
export function createLocalBilling(db: Database, options: {
  encryptionKey: Buffer; serverHostname: string; catalogueTtlMs: number;
  /** Called once a transaction that may have queued mail has committed (the mail worker's nudge). */
  mailQueued?: () => void;
}): BillingPort {
  /** A replayed answer queued nothing; a fresh one may have. */
  const afterMail = <T extends { replayed: boolean }>(answer: T): T => {
    if (!answer.replayed) options.mailQueued?.();
    return answer;
  };

  const toProduct = (row: typeof products.$inferSelect, optionRows: (typeof configOptions.$inferSelect)[]): CatalogueProduct => ({
    pid: row.pid,
    name: row.name,
    description: row.description,
    group: row.group,
    paytype: row.paytype,
    billingcycle: row.billingcycle,
    pricing: row.pricing,
    configoptions: row.configOptionIds
      .map((id) => optionRows.find((option) => option.id === id))
      .filter((option) => option !== undefined)
      .map((option) => ({ id: option.id, name: option.name, pricing: option.pricing })),
    customFields: { username: row.usernameFieldId, password: row.passwordFieldId },
  });

  const readCatalogue = async () => {
    const [rows, optionRows] = await Promise.all([
      // A retired product (left out of the catalogue file) is neither listed nor sold; service() still names it.
      db.select().from(products).where(eq(products.retired, false)).orderBy(asc(products.group), asc(products.sortOrder), asc(products.pid)),
      db.select().from(configOptions),
    ]);
    return rows.map((row) => toProduct(row, optionRows));
  };

  const readCurrencies = async (): Promise<CurrencyRate[]> => {
    const rows = await db.select().from(currencies).orderBy(asc(currencies.code));
    return rows.filter((row) => isCurrency(row.code)).map((row) => ({ code: row.code, rate: row.rate, isDefault: row.isDefault }));
  };

  // The catalogue and the currency rates are read on every page and change rarely: each is kept for a
  // short while, one load at a time.
  const cached = <T>(read: () => Promise<T>) => {
    let entry: { loaded: Promise<T>; expires: number } | null = null;
    return () => {
      if (!entry || entry.expires <= Date.now()) {
        const loaded = read();
        const current = { loaded, expires: Date.now() + options.catalogueTtlMs };
        entry = current;
        loaded.catch(() => { if (entry === current) entry = null; });
      }
      return entry.loaded;
    };
  };
  const cachedCatalogue = cached(readCatalogue);
  const cachedCurrencies = cached(readCurrencies);
  const cachedGatewayNames = cached(async () => Object.fromEntries((await db.select().from(gatewayNames)).map((row) => [row.module, row.displayname])));

  const toClient = (row: typeof clients.$inferSelect): Client => ({ id: row.id, email: row.email, passwordHash: row.passwordHash, reseller: row.reseller, emailVerified: row.emailVerifiedAt !== null });

  const readOrder = async (executor: Executor, id: number): Promise<OrderRecord | null> => {
    const [order] = await executor.select().from(orders).where(eq(orders.id, id));
    if (!order) return null;
    const [invoice] = await executor.select().from(invoices).where(and(eq(invoices.orderId, id), eq(invoices.kind, 'order')));
    const serviceRows = await executor.select({ id: services.id }).from(services).where(eq(services.orderId, id)).orderBy(asc(services.id));
    if (!invoice) throw new Error(`Order ${id} has no invoice`);
    return {
      id: order.id, clientId: order.clientId, kind: order.kind, status: order.status, fraud: order.fraud, currency: order.currency,
      amountCents: order.amountCents, invoiceId: invoice.id, invoiceStatus: invoice.status, serviceIds: serviceRows.map((row) => row.id),
    };
  };

  const readPayment = async (executor: Executor, id: string): Promise<PaymentRecord | null> => {
    const [row] = await executor.select({ payment: payments, invoiceKind: invoices.kind, invoiceStatus: invoices.status, orderKind: orders.kind, orderStatus: orders.status })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .leftJoin(orders, eq(orders.id, invoices.orderId))
      .where(eq(payments.id, id));
    if (!row) return null;
    const returnPath = row.orderKind === 'reseller' ? '/checkout/resellers/waiting' : '/checkout/waiting';
    return { ...row.payment, returnPath, invoiceStatus: row.invoiceStatus, invoiceKind: row.invoiceKind, orderStatus: row.orderStatus ?? null };
  };

  const insertPayment = async (executor: Executor, invoice: { id: number; currency: Currency; amountCents: number }, gateway: string, expiresAt: Date) => {
    const [payment] = await executor.insert(payments).values({
      id: newPaymentId(), invoiceId: invoice.id, gateway, currency: invoice.currency, amountCents: invoice.amountCents, status: 'Open', expiresAt,
    }).returning();
    if (!payment) throw new Error('Payment was not created');
    return payment;
  };

  const readService = async (executor: Executor, id: number): Promise<ServiceRecord | null> => {
    const [row] = await executor.select({ service: services, productName: products.name, productGroup: products.group })
      .from(services).innerJoin(products, eq(products.pid, services.pid)).where(eq(services.id, id));
    if (!row) return null;
    const { passwordEncrypted, ...service } = row.service;
    return {
      id: service.id, clientId: service.clientId, orderId: service.orderId, pid: service.pid, billingcycle: service.billingcycle, status: service.status,
      username: service.username, password: passwordEncrypted ? decryptSecret(options.encryptionKey, passwordEncrypted) : null,
      serverHostname: service.serverHostname, macAddress: service.macAddress, extraConnections: service.extraConnections, notes: service.notes,
      productName: row.productName, productGroup: row.productGroup,
    };
  };

  /** Credentials for a service that has none yet; the password is sealed before it is stored. */
  const credentials = () => ({ username: generateUsername(), passwordEncrypted: encryptSecret(options.encryptionKey, generateServicePassword()) });

  /**
   * Runs `work` once per idempotency key: the first answer is stored in the same transaction and replayed
   * to every retry with the same body; concurrent retries wait on the key's row lock. A failed attempt
   * (an HttpError thrown by `work`) rolls back and stores nothing.
   */
  async function idempotent<T>(claim: IdempotencyClaim | null, work: (tx: Transaction) => Promise<T>): Promise<StoredAnswer<T>> {
    return db.transaction(async (tx) => {
      if (claim) {
        const inserted = await tx.insert(idempotencyKeys)
          .values({ scope: claim.scope, key: claim.key, requestHash: claim.requestHash, statusCode: 0, response: {} })
          .onConflictDoNothing()
          .returning({ key: idempotencyKeys.key });
        if (inserted.length === 0) {
          const [stored] = await tx.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key)));
          if (!stored || stored.requestHash !== claim.requestHash) {
            throw conflict('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
          }
          return { statusCode: stored.statusCode, body: stored.response as T, replayed: true };
        }
      }
      const body = await work(tx);
      if (claim) {
        await tx.update(idempotencyKeys).set({ statusCode: 200, response: body as object })
          .where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key)));
      }
      return { statusCode: 200, body, replayed: false };
    });
  }

  return {
    products: async (group) => (await cachedCatalogue()).filter((product) => product.group === group),

    product: async (pid) => (await cachedCatalogue()).find((product) => product.pid === pid) ?? null,

    async promotion(code) {
      // A retired promotion (left out of the catalogue file) is no longer accepted; its row keeps its uses.
      const [row] = await db.select().from(promotions).where(and(sql`lower(${promotions.code}) = lower(${code})`, eq(promotions.retired, false)));
      if (!row) return null;
      return { code: row.code, type: row.type, value: row.value, appliesto: row.appliesto, startdate: row.startdate, expirationdate: row.expirationdate, maxuses: row.maxuses, uses: row.uses };
    },

    currencies: cachedCurrencies,

    gatewayNames: cachedGatewayNames,

    async clientByEmail(email) {
      const [row] = await db.select().from(clients).where(eq(clients.email, email.trim().toLowerCase()));
      return row ? toClient(row) : null;
    },

    async clientById(id) {
      const [row] = await db.select().from(clients).where(eq(clients.id, id));
      return row ? toClient(row) : null;
    },

    async createClient(input) {
      const [row] = await db.insert(clients).values({ email: input.email.trim().toLowerCase(), passwordHash: input.passwordHash, reseller: input.reseller })
        .onConflictDoNothing().returning();
      return row ? toClient(row) : null;
    },

    async guestClient(email) {
      const normalised = email.trim().toLowerCase();
      await db.insert(clients).values({ email: normalised }).onConflictDoNothing();
      const [row] = await db.select().from(clients).where(eq(clients.email, normalised));
      if (!row) throw new Error('Guest client was not created');
      return toClient(row);
    },

    async ordersFromIpSince(ip, since) {
      const [row] = await db.select({ total: count() }).from(orders).where(and(eq(orders.ip, ip), gte(orders.createdAt, since)));
      return row?.total ?? 0;
    },

    placeOrder: (order, claim) => idempotent(claim, async (tx) => {
      const [created] = await tx.insert(orders).values({
        clientId: order.clientId, kind: order.kind, status: order.fraud ? 'Fraud' : 'Pending', fraud: order.fraud, ip: order.ip, country: order.country,
        currency: order.currency, amountCents: order.amountCents, promocode: order.promocode, affid: order.affid, locale: order.locale,
      }).returning();
      if (!created) throw new Error('Order was not created');
      const serviceRows = await tx.insert(services).values(order.items.map((item) => ({
        clientId: order.clientId, orderId: created.id, pid: item.pid, billingcycle: item.billingcycle, status: created.status,
        serverHostname: options.serverHostname, extraConnections: item.extraConnection ? 1 : 0, proxyProtection: item.proxyProtection,
      }))).returning({ id: services.id });
      // A flagged order's invoice is cancelled, as fraudOrder does, so no new payment link can pay it.
      const [invoice] = await tx.insert(invoices).values({
        clientId: order.clientId, kind: 'order', orderId: created.id, status: order.fraud ? 'Cancelled' : 'Unpaid', currency: order.currency, amountCents: order.amountCents,
      }).returning();
      if (!invoice) throw new Error('Invoice was not created');
      if (order.promocode) {
        // Counted only while uses are left, so concurrent orders cannot use a code beyond its maxuses.
        const counted = await tx.update(promotions).set({ uses: sql`${promotions.uses} + 1` })
          .where(sql`lower(${promotions.code}) = lower(${order.promocode}) and not ${promotions.retired} and (${promotions.maxuses} = 0 or ${promotions.uses} < ${promotions.maxuses})`)
          .returning({ code: promotions.code });
        if (counted.length === 0) throw unprocessable('promotion_invalid', MESSAGE_TEXTS['promo.exhausted']);
      }
      const payment = order.payment ? await insertPayment(tx, invoice, order.payment.gateway, order.payment.expiresAt) : null;
      // A flagged order gets no receipt: nothing is due on it, and a caller spraying orders would mail strangers.
      if (payment && !order.fraud) {
        await queueOrderReceipt(tx, {
          orderId: created.id, invoiceId: invoice.id, clientId: order.clientId, kind: order.kind, items: order.items, promocode: order.promocode,
          amountCents: created.amountCents, currency: created.currency, deadline: payment.expiresAt, locale: order.locale,
        });
      }
      return {
        orderid: created.id, invoiceid: invoice.id, serviceids: serviceRows.map((row) => row.id), fraud: created.fraud, status: created.status,
        amount: cents(created.amountCents), currency: created.currency, paymentId: payment?.id ?? null, deadline: payment?.expiresAt.toISOString() ?? null,
      };
    }).then(afterMail),

    order: (id) => readOrder(db, id),

    changeOrderStatus: (id, from, to) => db.transaction(async (tx) => {
      const [updated] = await tx.update(orders).set({ status: to, ...(to === 'Fraud' ? { fraud: true } : {}) })
        .where(and(eq(orders.id, id), inArray(orders.status, from))).returning({ id: orders.id });
      if (!updated) return null;
      await tx.update(services).set({ status: to }).where(eq(services.orderId, id));
      await tx.update(invoices).set({ status: 'Cancelled' }).where(and(eq(invoices.orderId, id), eq(invoices.status, 'Unpaid')));
      return readOrder(tx, id);
    }),

    async invoice(id) {
      const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
      if (!row) return null;
      const { id: invoiceId, clientId, kind, orderId, serviceId, status, currency, amountCents } = row;
      return { id: invoiceId, clientId, kind, orderId, serviceId, status, currency, amountCents } satisfies InvoiceRecord;
    },

    createUpsellInvoice: (input, claim) => idempotent(claim, async (tx) => {
      const [invoice] = await tx.insert(invoices).values({
        clientId: input.clientId, kind: 'upsell', serviceId: input.serviceId, extraQuantity: input.quantity, status: 'Unpaid', currency: input.currency, amountCents: input.amountCents,
      }).returning();
      if (!invoice) throw new Error('Invoice was not created');
      const payment = await insertPayment(tx, invoice, input.payment.gateway, input.payment.expiresAt);
      await queueUpsellReceipt(tx, {
        invoiceId: invoice.id, clientId: input.clientId, serviceId: input.serviceId, quantity: input.quantity, amountCents: invoice.amountCents,
        currency: invoice.currency, deadline: payment.expiresAt, locale: input.locale,
      });
      return { invoiceid: invoice.id, paymentId: payment.id, amountCents: invoice.amountCents, currency: invoice.currency, deadline: payment.expiresAt.toISOString() };
    }).then(afterMail),

    async createPayment({ invoiceId, gateway, expiresAt }) {
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
      if (!invoice) throw new Error(`Invoice ${invoiceId} not found`);
      const payment = await insertPayment(db, invoice, gateway, expiresAt);
      const record = await readPayment(db, payment.id);
      if (!record) throw new Error('Payment was not created');
      return record;
    },

    payment: (id) => readPayment(db, id),

    settlePayment: (gateway, event) => db.transaction(async (tx): Promise<SettleResult> => {
      const fresh = await tx.insert(webhookEvents).values({ id: event.id, gateway, type: event.type }).onConflictDoNothing().returning({ id: webhookEvents.id });
      if (fresh.length === 0) return { outcome: 'duplicate', reason: null, invoiceId: event.invoiceId };
      const found = await readPayment(tx, event.paymentId);
      // A payment of another gateway or another invoice is, for this event, a payment we do not know.
      const payment = found && found.gateway === gateway && found.invoiceId === event.invoiceId ? found : null;
      const invoiceId = payment?.invoiceId ?? event.invoiceId;
      const exception = async (reason: PaymentExceptionReason): Promise<SettleResult> => {
        // A declined event moved no money: nothing to refund or apply, so it is not the operator's to handle.
        if (event.type !== 'payment.succeeded') return { outcome: 'ignored', reason, invoiceId };
        await tx.insert(paymentExceptions).values({
          gateway, eventId: event.id, eventType: event.type, paymentId: event.paymentId, invoiceId, amountCents: event.amountCents, currency: event.currency, reason,
        });
        return { outcome: 'exception', reason, invoiceId };
      };
      if (!payment) return exception('unknown_payment');
      const sameMoney = payment.amountCents === event.amountCents && payment.currency === event.currency;
      // The payment that paid this invoice, reported again under a new event id: the same money, already applied.
      if (payment.status === 'Paid' && sameMoney && event.type === 'payment.succeeded') return { outcome: 'already_applied', reason: null, invoiceId };
      const closed = closedInvoiceReason(payment.invoiceStatus);
      if (closed) return exception(closed);
      if (payment.expiresAt.getTime() < event.createdAt.getTime()) return exception('link_expired');
      if (payment.currency !== event.currency) return exception('currency_mismatch');
      if (payment.amountCents !== event.amountCents) return exception('amount_mismatch');
      // Money seen, not final yet: the payment settles on the provider's final event (lifecycle shows it).
      if (event.type === 'payment.confirming') return { outcome: 'ignored', reason: null, invoiceId };
      if (event.type === 'payment.failed') {
        await tx.update(payments).set({ status: 'Declined' }).where(and(eq(payments.id, payment.id), eq(payments.status, 'Open')));
        return { outcome: 'declined', reason: null, invoiceId };
      }
      const [invoice] = await tx.update(invoices).set({ status: 'Paid', paidAt: new Date() })
        .where(and(eq(invoices.id, payment.invoiceId), eq(invoices.status, 'Unpaid'))).returning();
      if (!invoice) {
        // Closed by a concurrent transaction (another link paid, the order cancelled) since it was read.
        const [now] = await tx.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, payment.invoiceId));
        return exception(closedInvoiceReason(now?.status ?? 'Cancelled') ?? 'invoice_paid');
      }
      await tx.update(payments).set({ status: 'Paid' }).where(eq(payments.id, payment.id));
      if (invoice.kind === 'upsell' && invoice.serviceId) {
        await tx.update(services).set({ extraConnections: sql`${services.extraConnections} + ${invoice.extraQuantity}` }).where(eq(services.id, invoice.serviceId));
        return { outcome: 'paid', reason: null, invoiceId };
      }
      if (invoice.orderId) {
        await tx.update(orders).set({ status: 'Active' }).where(eq(orders.id, invoice.orderId));
        const pending = await tx.select({ id: services.id }).from(services).where(eq(services.orderId, invoice.orderId));
        for (const service of pending) {
          await tx.update(services).set({ status: 'Active', ...credentials() }).where(eq(services.id, service.id));
        }
        const [order] = await tx.select().from(orders).where(eq(orders.id, invoice.orderId));
        if (order?.kind === 'reseller') await tx.update(clients).set({ reseller: true }).where(eq(clients.id, order.clientId));
        await queueServiceActive(tx, invoice.orderId);
      }
      return { outcome: 'paid', reason: null, invoiceId };
    }).then((result) => {
      if (result.outcome === 'paid') options.mailQueued?.();
      return result;
    }),

    service: (id) => readService(db, id),

    async activeServices(clientId) {
      const rows = await db.select({ id: services.id }).from(services)
        .where(and(eq(services.clientId, clientId), eq(services.status, 'Active'))).orderBy(asc(services.id));
      const found = await Promise.all(rows.map((row) => readService(db, row.id)));
      return found.filter((service): service is ServiceRecord => service !== null);
    },

    async updateService(id, patch) {
      await db.update(services).set(patch).where(eq(services.id, id));
      return readService(db, id);
    },

    async provisionService(id) {
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(services).where(eq(services.id, id));
        if (!row || row.username) return;
        await tx.update(services).set({ status: 'Active', ...credentials() }).where(eq(services.id, id));
      });
      return readService(db, id);
    },

    async recordAffiliateClick({ affId, referer, ip }) {
      await db.insert(affiliateClicks).values({ affId, referer, ip });
    },
  };
}
