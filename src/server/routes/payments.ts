import type { FastifyBaseLogger } from 'fastify';
import { PAYMENT_DEADLINE_MS } from '../../domain/constants';
import { isCryptoGateway } from '../../domain/gateway';
import { sameAmount } from '../../domain/money';
import { badRequest, conflict, forbidden, notFound } from '../http-error';
import type { components } from '../../api/schema';
import { closedInvoiceReason, type ClosedInvoiceReason, type InvoiceRecord } from '../billing/port';
import { paymentLink, refuseCurrency } from '../payments/link';
import { takesCurrency } from '../payments/port';
import { assertOwnsOrder, requireSession, type Session } from '../session';
import { translatedGatewayName } from '../merchant';
import type { Handlers, RouteDeps } from './types';

type GatewayPaymentRequest = components['schemas']['GatewayPaymentRequest'];

const CLOSED_INVOICE_MESSAGES: Record<ClosedInvoiceReason, (kind: InvoiceRecord['kind']) => string> = {
  invoice_paid: () => 'This invoice is already paid.',
  invoice_cancelled: (kind) => (kind === 'order' ? 'This order was cancelled; its invoice can no longer be paid.' : 'This invoice was cancelled and can no longer be paid.'),
  invoice_refunded: () => 'This invoice was refunded and can no longer be paid.',
};

/** Gateways, and a new payment link for an unpaid invoice (card gateways: offshore; crypto: coinbase). */
export function paymentRoutes({ billing, gateways, config, clock, shop }: RouteDeps): Handlers<'getGateway' | 'offshore' | 'coinbase'> {
  const newLink = async (session: Session, body: GatewayPaymentRequest, crypto: boolean, log: FastifyBaseLogger) => {
    const { invoiceid, paymentmethod, amount, currency } = body;
    const gateway = gateways.find((candidate) => candidate.module === paymentmethod);
    if (!gateway) throw badRequest(`Unknown payment method "${paymentmethod}".`, 'unknown_gateway');
    if (isCryptoGateway(gateway.type) !== crypto) {
      throw badRequest(`${gateway.displayname} is paid through /checkout/api/${crypto ? 'offshore' : 'coinbase'}.`, 'wrong_gateway_kind');
    }
    const invoice = await billing.invoice(invoiceid);
    if (!invoice) throw notFound('This invoice does not exist.');
    if (invoice.orderId) {
      const order = await billing.order(invoice.orderId);
      if (!order) throw notFound('This invoice does not exist.');
      assertOwnsOrder(session, order);
    } else if (session.reach !== 'client' || invoice.clientId !== session.clientId) {
      throw forbidden();
    }
    // A payment that came after the link expired or the order closed is the operator's to apply or refund: a
    // new link (renew or change of gateway) would ask a shopper who has paid to pay again.
    if ((await billing.invoiceProgress(invoice.id, clock.now())).latePayment) {
      throw conflict('paid_after_close', 'A payment for this invoice arrived after it closed; it will be applied or refunded, so no new link is made.');
    }
    const closed = closedInvoiceReason(invoice.status);
    if (closed) throw conflict(closed, CLOSED_INVOICE_MESSAGES[closed](invoice.kind));
    // Money already on its way: a second link could only take it twice.
    if (await billing.paymentConfirming(invoice.id)) {
      throw conflict('payment_confirming', 'A payment for this invoice is being confirmed: wait for its confirmation.');
    }
    const due = invoice.amountCents / 100;
    if (currency !== invoice.currency || !sameAmount(amount, due)) {
      throw conflict('price_changed', `This invoice is for ${due.toFixed(2)} ${invoice.currency}.`, { amount: due, currency: invoice.currency });
    }
    refuseCurrency(gateway, invoice.currency);
    const payment = await billing.createPayment({ invoiceId: invoice.id, gateway: gateway.module, expiresAt: new Date(clock.now().getTime() + PAYMENT_DEADLINE_MS) });
    const link = await paymentLink(gateway, billing, config.publicUrl, payment.id, log);
    return { invoiceid: invoice.id, paymentmethod: gateway.module, link, deadline: payment.expiresAt.toISOString() };
  };

  // The marks the catalogue file names for a gateway; none named, none sent.
  const marksOf = (module: string) => {
    const marks = shop.showcase.marks.get(module);
    return marks?.length ? { marks: [...marks] } : {};
  };
  return {
    async getGateway(request) {
      const { currency, locale } = request.query;
      const offered = currency ? gateways.filter((gateway) => takesCurrency(gateway, currency)) : gateways;
      const [first] = offered.length ? offered : gateways;
      if (!first) throw new Error('No payment gateway is configured');
      const names = await billing.gatewayNames();
      return {
        paymentmethods: { paymentmethod: offered.map(({ module, displayname, type, currencies }) => ({ module, displayname: translatedGatewayName(module, names[module] ?? displayname, locale, shop.translations), type, currencies: [...currencies], ...marksOf(module) })) },
        defaultGateway: first.module,
      };
    },
    offshore: async (request) => newLink(await requireSession(request), request.body, false, request.log),
    coinbase: async (request) => newLink(await requireSession(request), request.body, true, request.log),
  };
}
