import { PAYMENT_DEADLINE_MS } from '../../domain/constants';
import { EXTRA_CONNECTION_OPTION_ID, PROXY_PROTECTION_OPTION_ID } from '../../domain/constants';
import { MESSAGE_TEXTS, promotionRefusalMessage } from '../../domain/messages';
import { sameAmount, toCents } from '../../domain/money';
import { addOnsOf } from '../../domain/order-draft';
import { prorate, quoteOrder, quoteProducts, quoteUpsell } from '../../domain/pricing';
import { isoDate, promotionRefusal, type Promotion } from '../../domain/promotion';
import { pricedPromotion } from '../billing/promotions';
import { serviceProration } from '../billing/proration';
import type { CatalogueProduct, IdempotencyClaim, InvoiceProgress, NewUpsellInvoice, PaymentRecord, PlacedOrder, StoredAnswer, UpsellInvoice } from '../billing/port';
import { idempotencyClaim } from '../billing/shared/idempotency';
import type { PaymentGateway } from '../payments/port';
import type { CatalogueTranslations } from '../catalogue/load';
import type { Locale } from '../../domain/locale';
import { translatedGatewayName, translatedProduct } from '../merchant';
import type { components } from '../../api/schema';
import { badRequest, conflict, forbidden, notFound, unauthenticated, unprocessable } from '../http-error';
import { assertOwnsOrder, rememberOrder, requireLogin, requireSession, type Session } from '../session';
import { shopperLocale } from '../mail/locale';
import { paymentLink, refuseCurrency } from '../payments/link';
import { visitorOf } from '../visitor';
import type { Handler, Handlers, RouteDeps } from './types';

/** The receipt of the waiting and success pages; a stored cycle is one of the catalogue's (the catalogue file is checked against them). */
function receiptOf(progress: InvoiceProgress, gateways: PaymentGateway[], names: Record<string, string>, locale: Locale | undefined, translations: CatalogueTranslations): components['schemas']['Receipt'] {
  const { lines, promocode, discountCents, createdAt, paidAt, gateway } = progress;
  // Named as the gateway list names it (the catalogue's display name in the shopper's locale, else the gateway's own).
  const displayname = gateway === null ? null : translatedGatewayName(gateway, names[gateway] ?? gateways.find((candidate) => candidate.module === gateway)?.displayname ?? gateway, locale, translations);
  return {
    lines: lines.map((line) => translatedProduct({ ...line, billingcycle: line.billingcycle as components['schemas']['BillingCycle'] }, locale, translations)),
    promocode,
    discount: discountCents / 100,
    date: (createdAt ?? new Date(0)).toISOString(),
    datepaid: paidAt?.toISOString() ?? null,
    paymentmethod: gateway && displayname ? { module: gateway, displayname } : null,
  };
}

/** cancelOrder's answer for an order flagged as fraud (the waiting page shows its own translation, messages.api.order_under_review). */
export const ORDER_UNDER_REVIEW = 'This order is under review and cannot be cancelled. We will contact you by e-mail.';

const priceChanged = (amount: number, currency: string) =>
  conflict('price_changed', `The price is now ${amount.toFixed(2)} ${currency}. Please confirm the new total.`, { amount, currency });

/** Orders and invoices: creation priced on the server, status reads, cancel and fraud flag. */
export function orderRoutes({ billing, gateways, fraud, config, clock, shop, metrics }: RouteDeps): Handlers<'order' | 'addInvoice' | 'getOrderStatus' | 'getInvoiceStatus' | 'cancelOrder' | 'fraudOrder'> {
  const gatewayOf = (module: string) => {
    const gateway = gateways.find((candidate) => candidate.module === module);
    if (!gateway) throw badRequest(`Unknown payment method "${module}".`, 'unknown_gateway');
    return gateway;
  };

  const ownedOrder = async (session: Session, orderId: number) => {
    const order = await billing.order(orderId);
    if (!order) throw notFound('This order does not exist.');
    assertOwnsOrder(session, order);
    return order;
  };

  const productsFor = async (pids: number[], group: CatalogueProduct['group']) => {
    if (new Set(pids).size !== pids.length) throw badRequest('A product is listed twice.');
    const found = await Promise.all(pids.map((pid) => billing.product(pid)));
    return found.map((product, index) => {
      if (!product || product.group !== group) throw notFound(`Product ${pids[index]} is not sold here.`);
      return product;
    });
  };

  /**
   * The products of a reseller order as the server builds it: the browser's list is a choice of credit
   * pack; the panel activation is added for a new reseller and refused for an existing one.
   */
  const resellerOrderPids = async (session: Session, chosen: number[]) => {
    const activation = config.resellerActivationPid;
    const client = await billing.clientById(session.clientId);
    if (!client) throw unauthenticated('Sign in to continue.');
    if (client.reseller && chosen.includes(activation)) {
      throw badRequest('You are already a reseller: the panel activation is not needed. Choose a credit pack.', 'activation_not_needed');
    }
    const packs = chosen.filter((pid) => pid !== activation);
    if (packs.length !== 1) throw badRequest('Choose one credit pack.', 'credit_pack_required');
    return client.reseller ? packs : [...packs, activation];
  };

  /** The order's total as the server prices it; a body whose amount differs is refused with the server's amount. */
  const priceOrder = async (body: components['schemas']['OrderRequest'], products: CatalogueProduct[], reseller: boolean) => {
    let total: number | null;
    let discount = 0;
    let extraConnection = false;
    let proxyProtection = false;
    if (reseller) {
      total = quoteProducts(products, body.currency);
    } else {
      const product = products[0] as CatalogueProduct;
      ({ extraConnection, proxyProtection } = addOnsOf(body.configoptions));
      const option = (id: number, chosen: boolean) => {
        if (!chosen) return null;
        const found = product.configoptions.find((candidate) => candidate.id === id);
        if (!found) throw badRequest(`Option ${id} is not offered with this product.`);
        return found;
      };
      let promotion: Promotion | null = null;
      if (body.promocode) {
        const stored = await billing.promotion(body.promocode);
        if (!stored) throw unprocessable('promotion_invalid', 'Promotion code not found.');
        const refusal = promotionRefusal(stored, product.pid, isoDate());
        if (refusal) throw unprocessable('promotion_invalid', MESSAGE_TEXTS[promotionRefusalMessage(refusal)]);
        promotion = await pricedPromotion(billing, stored);
      }
      const quote = quoteOrder({
        product, currency: body.currency, promotion,
        extraConnection: option(EXTRA_CONNECTION_OPTION_ID, extraConnection),
        proxyProtection: option(PROXY_PROTECTION_OPTION_ID, proxyProtection),
      });
      total = quote?.total ?? null;
      discount = quote?.discount ?? 0;
    }
    if (total === null) throw unprocessable('not_priced', `This product is not sold in ${body.currency}.`);
    if (!sameAmount(body.amount, total)) throw priceChanged(total, body.currency);
    return { total, discount, extraConnection, proxyProtection };
  };

  /**
   * A refused request whose Idempotency-Key already has an answer gets that answer: a retry is not refused for what
   * changed since its first request (a price, a promotion's last use, a pack, the service), and a first request pays no lookup.
   */
  const orRecordedAnswer = <T,>(claim: IdempotencyClaim | null) => async (refusal: unknown): Promise<StoredAnswer<T>> => {
    const recorded = claim ? await billing.recordedAnswer<T>(claim) : null;
    if (recorded) return recorded;
    throw refusal;
  };

  /** A new order, priced and checked on the server, placed under the request's claim. */
  const placeNewOrder = async (request: Parameters<Handler<'order'>>[0], session: Session, gateway: PaymentGateway, claim: IdempotencyClaim | null) => {
    const body = request.body;
    const reseller = Array.isArray(body.pid);
    const pids = Array.isArray(body.pid) ? await resellerOrderPids(session, body.pid) : [body.pid];
    const products = await productsFor(pids, reseller ? 'reseller' : 'retail');
    const { total, discount, extraConnection, proxyProtection } = await priceOrder(body, products, reseller);
    const visitor = visitorOf(request, config);
    const verdict = await fraud.assess(visitor);
    return billing.placeOrder({
      clientId: session.clientId,
      kind: reseller ? 'reseller' : 'retail',
      items: products.map((product) => ({ pid: product.pid, billingcycle: product.billingcycle, extraConnection, proxyProtection })),
      currency: body.currency,
      amountCents: toCents(total),
      ip: visitor.ip,
      country: visitor.country,
      promocode: body.promocode ?? null,
      discountCents: toCents(discount),
      affid: body.affid ?? null,
      fraud: !verdict.valid,
      payment: verdict.valid ? { gateway: gateway.module, expiresAt: new Date(clock.now().getTime() + PAYMENT_DEADLINE_MS) } : null,
      locale: shopperLocale(request, visitor.country),
      // "Remind me if I don't finish" is ticked unless the body says false.
      recoveryAfterMs: body.remind === false ? null : config.mail.recoveryAfterMs,
    }, claim);
  };

  /** The invoice of extra connections a request asks for, priced on the server: the service must be the session's, active, and offer them. */
  const newUpsellInvoice = async (request: Parameters<Handler<'addInvoice'>>[0], session: Session, gateway: PaymentGateway): Promise<NewUpsellInvoice> => {
    const { serviceId, extraQuantity, price, currency } = request.body;
    const service = await billing.service(serviceId);
    if (!service) throw notFound('This service does not exist.');
    if (service.clientId !== session.clientId) throw forbidden();
    // Extra connections are an account's: a sign-up whose address is not proved yet cannot buy them.
    if (session.reach !== 'client') throw unauthenticated('Sign in to continue.');
    if (service.status !== 'Active') throw conflict('service_not_active', 'Extra connections can only be added to an active service.');
    const product = await billing.product(service.pid);
    const option = product?.configoptions.find((candidate) => candidate.id === EXTRA_CONNECTION_OPTION_ID);
    if (!option) throw unprocessable('not_offered', 'Extra connections are not offered for this service.');
    const fullPeriod = quoteUpsell(option, service.billingcycle, currency, extraQuantity);
    if (fullPeriod === null) throw unprocessable('not_priced', `Extra connections are not sold in ${currency} for this service.`);
    // Priced for the rest of what is billed, as getActiveProducts showed it that day (a day later is a price change).
    const amount = prorate(fullPeriod, await serviceProration(billing, service, clock.now()));
    if (!sameAmount(price, amount)) throw priceChanged(amount, currency);
    return {
      clientId: session.clientId, serviceId, quantity: extraQuantity, currency, amountCents: toCents(amount),
      payment: { gateway: gateway.module, expiresAt: new Date(clock.now().getTime() + PAYMENT_DEADLINE_MS) },
      locale: shopperLocale(request, visitorOf(request, config).country),
    };
  };

  return {
    async order(request) {
      const session = await requireSession(request);
      const body = request.body;
      const reseller = Array.isArray(body.pid);
      if (reseller) await requireLogin(request);
      if (reseller && (body.promocode || body.configoptions)) throw badRequest('Reseller orders take no promotion or options.');
      const gateway = gatewayOf(body.paymentmethod);
      refuseCurrency(gateway, body.currency);
      const claim = idempotencyClaim(request, `order:${session.clientId}:${session.id}`);
      const answer: StoredAnswer<PlacedOrder> & { payment?: PaymentRecord } = await placeNewOrder(request, session, gateway, claim).catch(orRecordedAnswer<PlacedOrder>(claim));
      const { paymentId, ...placed } = answer.body;
      // A replay was counted when first placed; an order the fraud rules held is refused its payment.
      if (!answer.replayed) {
        if (placed.fraud) metrics.orderRefused('fraud');
        else metrics.orderCreated({ gateway: gateway.module, billing: config.billing.kind, currency: placed.currency, amountCents: toCents(placed.amount) });
      }
      await rememberOrder(request, session, placed.orderid);
      return { ...placed, link: paymentId ? await paymentLink(gateway, billing, config.publicUrl, answer.payment ?? paymentId, request.log) : null };
    },

    async addInvoice(request) {
      const session = await requireLogin(request);
      const gateway = gatewayOf(request.body.paymentmethod);
      refuseCurrency(gateway, request.body.currency);
      const claim = idempotencyClaim(request, `addInvoice:${session.clientId}:${session.id}`);
      const answer = await newUpsellInvoice(request, session, gateway).then((invoice) => billing.createUpsellInvoice(invoice, claim)).catch(orRecordedAnswer<UpsellInvoice>(claim));
      const { invoiceid, paymentId, amountCents, deadline } = answer.body;
      return { invoiceid, amount: amountCents / 100, currency: answer.body.currency, link: await paymentLink(gateway, billing, config.publicUrl, paymentId, request.log), deadline };
    },

    async getOrderStatus(request) {
      const order = await ownedOrder(await requireSession(request), Number(request.query.orderid));
      const progress = await billing.invoiceProgress(order.invoiceId, clock.now());
      const { payment, latePayment } = progress;
      return {
        orderid: order.id, status: order.status, invoiceid: order.invoiceId, invoiceStatus: order.invoiceStatus,
        serviceids: order.serviceIds, fraud: order.fraud, amount: order.amountCents / 100, currency: order.currency,
        payment, latePayment, receipt: receiptOf(progress, gateways, await billing.gatewayNames(), request.query.locale, shop.translations),
      };
    },

    async getInvoiceStatus(request) {
      const session = await requireSession(request);
      const invoice = await billing.invoice(Number(request.query.invoiceid));
      if (!invoice) throw notFound('This invoice does not exist.');
      if (invoice.orderId) await ownedOrder(session, invoice.orderId);
      else if (session.reach !== 'client' || invoice.clientId !== session.clientId) throw forbidden();
      const progress = await billing.invoiceProgress(invoice.id, clock.now());
      const { payment, latePayment } = progress;
      return {
        invoiceid: invoice.id, status: invoice.status, kind: invoice.kind, orderid: invoice.orderId, serviceid: invoice.serviceId,
        amount: invoice.amountCents / 100, currency: invoice.currency, payment, latePayment, receipt: receiptOf(progress, gateways, await billing.gatewayNames(), request.query.locale, shop.translations),
      };
    },

    async cancelOrder(request) {
      const session = await requireSession(request);
      const order = await ownedOrder(session, request.body.orderid);
      // A flagged order is in the operator's fraud queue: the shopper cannot take it out by cancelling it.
      if (order.status === 'Fraud') throw conflict('order_under_review', ORDER_UNDER_REVIEW);
      if (await billing.paymentConfirming(order.invoiceId)) {
        throw conflict('payment_confirming', 'A payment for this order is being confirmed: it can no longer be cancelled.');
      }
      const cancelled = await billing.changeOrderStatus(request.body.orderid, ['Pending'], 'Cancelled');
      if (!cancelled) {
        // Flagged between the read and the change: still the operator's.
        if ((await billing.order(request.body.orderid))?.status === 'Fraud') throw conflict('order_under_review', ORDER_UNDER_REVIEW);
        throw conflict('order_not_pending', 'Only an unpaid order can be cancelled.');
      }
      return { orderid: cancelled.id, status: cancelled.status };
    },

    async fraudOrder(request) {
      const session = await requireSession(request);
      await ownedOrder(session, request.body.orderid);
      const flagged = await billing.changeOrderStatus(request.body.orderid, ['Pending'], 'Fraud');
      if (!flagged) throw conflict('order_not_pending', 'Only an unpaid order can be flagged.');
      return { orderid: flagged.id, status: flagged.status };
    },
  };
}

