import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PaymentRecord } from '../../billing/port';
import type { ServerConfig } from '../../config';
import type { ServerSecrets } from '../../secrets';
import type { PaymentGateway } from '../port';
import { signWebhook } from '../signature';
import { CARD_CSS, escapeHtml, serverPage } from '../../html-page';
import { isCryptoGateway } from '../../../domain/gateway';
import { sandboxEvents } from './events';
import { MERCHANT_FOOTER_CSS, merchantFooterHtml, type Merchant } from '../../merchant';
import { checkCard, type CardEntry } from './card';
import { cardPanel, confirmingPanel, hostedPage, money, prefilledEntry, secondStepPanel, walletPanel, type SandboxReceipt } from './page';
import { LANGUAGE_COOKIE, pickLocale } from '../../../domain/locale';
import { acceptedLanguages } from '../../spa';

/** A sandbox gateway: the port plus the secret its own page signs with. */
export interface SandboxGateway extends PaymentGateway {
  webhookSecret: string;
}

/** The catalogue's currencies: the sandbox takes whatever the checkout sells in. */
const SANDBOX_CURRENCIES = ['EUR', 'GBP'] as const;

/** A gateway that works offline: its hosted page is served by this server and confirms by signed webhook. */
export function sandboxGateway(module: string, displayname: string, type: PaymentGateway['type'], config: ServerConfig, secrets: ServerSecrets): SandboxGateway {
  const webhookSecret = secrets.webhook(module);
  return {
    module,
    displayname,
    type,
    currencies: SANDBOX_CURRENCIES,
    createLink: async (payment) => ({ url: `${config.publicUrl}/checkout/sandbox/pay/${payment.id}` }),
    verifyWebhook: (delivery) => sandboxEvents(webhookSecret, delivery),
    webhookSecret,
  };
}

/** The amount of a payment as its page writes it. */
const amountOf = (payment: PaymentRecord) => money(payment.amountCents, payment.currency);

const isSandbox = (gateway: PaymentGateway | undefined): gateway is SandboxGateway => typeof (gateway as SandboxGateway | undefined)?.webhookSecret === 'string';

/** The sandbox's plain pages (not found, closed link): a small card under the banner, the merchant's footer under it. */
const PLAIN_CSS = [CARD_CSS, 'main{max-width:26rem}', 'body{grid-template-rows:auto 1fr auto}', MERCHANT_FOOTER_CSS].join('\n');

/** A plain sandbox page; with `footer`, the merchant's footer (whom the shopper pays) under the card. */
const page = (title: string, body: string, demo: boolean, footer = '') => serverPage({ title, site: 'Sandbox payments', css: PLAIN_CSS, body, demo, after: footer });

/** What the sandbox page needs from the rest of the server. */
export interface SandboxDeps {
  gateways: PaymentGateway[];
  findPayment(id: string): Promise<PaymentRecord | null>;
  /** In demo mode the page carries the demo banner. */
  demo: boolean;
  /** Whom the shopper pays: its name and logo head the page, its footer is under it in the checkout's locale. */
  merchant: Merchant;
  /** What the invoice bills, shown beside the amount. */
  findReceipt(invoiceId: number): Promise<SandboxReceipt>;
  /** The time a card's expiry date is checked against. */
  now(): Date;
}

/** Why a link can no longer pay, as the shopper reads it; null while its invoice is Unpaid and the link is live. */
export function closedLink(payment: Pick<PaymentRecord, 'invoiceStatus' | 'invoiceKind' | 'expiresAt'> & { status?: PaymentRecord['status'] }, now = Date.now()): { status: 409 | 410; title: string; text: string } | null {
  if (payment.invoiceStatus === 'Paid') return { status: 409, title: 'This invoice is already paid', text: 'Nothing more is due on it, so this link no longer takes payments.' };
  if (payment.invoiceStatus === 'Cancelled') {
    return payment.invoiceKind === 'order'
      ? { status: 409, title: 'This order was cancelled', text: 'Its invoice can no longer be paid, so this link no longer takes payments.' }
      : { status: 409, title: 'This invoice was cancelled', text: 'It can no longer be paid, so this link no longer takes payments.' };
  }
  if (payment.invoiceStatus === 'Refunded') return { status: 409, title: 'This invoice was refunded', text: 'It can no longer be paid, so this link no longer takes payments.' };
  // Money seen before the deadline (Confirming) may still be confirmed after it.
  if (payment.status !== 'Confirming' && payment.expiresAt.getTime() < now) return { status: 410, title: 'This link has expired', text: 'Go back to the checkout to get a new payment link.' };
  return null;
}

/**
 * The sandbox provider's hosted page (outside the SPA): the merchant, the amount and its lines, a card form
 * that takes the test cards (a crypto wallet's buttons for a crypto gateway), then confirms through the same signed webhook a real provider sends, and returns the shopper to the checkout.
 * A link whose invoice is no longer Unpaid, or that has expired, shows why and takes no payment.
 */
export async function sandboxPages(app: FastifyInstance, deps: SandboxDeps): Promise<void> {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  /** The merchant's footer in the shopper's language: the checkout's language cookie, else the browser's languages. */
  const footer = (request: FastifyRequest) => merchantFooterHtml(deps.merchant, pickLocale({
    cookie: request.cookies?.[LANGUAGE_COOKIE], browserLanguages: acceptedLanguages(request.headers['accept-language']),
  }));

  const paymentOrPage = async (id: string, request: FastifyRequest) => {
    const payment = /^pay_[A-Za-z0-9_-]{16,64}$/.test(id) ? await deps.findPayment(id) : null;
    const gateway = deps.gateways.find((candidate) => candidate.module === payment?.gateway);
    if (!payment || !isSandbox(gateway)) return { ok: false, html: page('Payment not found', '<h1>Payment not found</h1><p>This payment link does not exist.</p>', deps.demo, footer(request)), status: 404 } as const;
    const closed = closedLink(payment);
    if (closed) {
      const html = page(closed.title, `<h1>${escapeHtml(closed.title)}</h1><p>${escapeHtml(closed.text)}</p><p><a href="${escapeHtml(payment.returnPath)}">Back to the checkout</a></p>`, deps.demo, footer(request));
      return { ok: false, html, status: closed.status } as const;
    }
    return { ok: true, payment, gateway } as const;
  };

  /** The hosted page of a live link, around one payment panel. */
  const hosted = async (payment: PaymentRecord, gateway: SandboxGateway, request: FastifyRequest, title: string, panel: string) => hostedPage({
    title, merchant: deps.merchant, gatewayName: gateway.displayname, invoiceId: payment.invoiceId, amount: amountOf(payment),
    receipt: await deps.findReceipt(payment.invoiceId), currency: payment.currency, panel, demo: deps.demo, footer: footer(request),
  });
  const actionOf = (payment: PaymentRecord) => `/checkout/sandbox/pay/${payment.id}`;

  app.get<{ Params: { paymentId: string }; Querystring: { card?: string } }>('/checkout/sandbox/pay/:paymentId', async (request, reply) => {
    const found = await paymentOrPage(request.params.paymentId, request);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!found.ok) return reply.code(found.status).send(found.html);
    const { payment, gateway } = found;
    const amount = amountOf(payment);
    const action = actionOf(payment);
    const declinedBefore = payment.status === 'Declined';
    if (payment.status === 'Confirming') {
      // A crypto payment seen on the chain: the sandbox lets the demo confirm it when it likes.
      return reply.send(await hosted(payment, gateway, request, `Confirm ${amount}`, confirmingPanel(action)));
    }
    if (isCryptoGateway(gateway.type)) return reply.send(await hosted(payment, gateway, request, `Pay ${amount}`, walletPanel({ action, amount, declinedBefore })));
    const now = deps.now();
    const entry = prefilledEntry(typeof request.query.card === 'string' ? request.query.card : undefined, now);
    return reply.send(await hosted(payment, gateway, request, `Pay ${amount}`, cardPanel({ action, amount, entry, declinedBefore, now })));
  });

  app.post<{ Params: { paymentId: string }; Body: { decision?: string } & Partial<CardEntry> }>('/checkout/sandbox/pay/:paymentId', async (request, reply) => {
    const found = await paymentOrPage(request.params.paymentId, request);
    reply.header('cache-control', 'no-store');
    if (!found.ok) return reply.type('text/html; charset=utf-8').code(found.status).send(found.html);
    const { payment, gateway } = found;
    const body = request.body ?? {};
    let decision = body.decision;
    if (decision === 'card' && !isCryptoGateway(gateway.type)) {
      const entry: CardEntry = { card: String(body.card ?? ''), expiry: String(body.expiry ?? ''), cvc: String(body.cvc ?? '') };
      const check = checkCard(entry, deps.now());
      const amount = amountOf(payment);
      if (!check.ok) {
        const panel = cardPanel({ action: actionOf(payment), amount, entry, errors: check.errors, declinedBefore: payment.status === 'Declined', now: deps.now() });
        return reply.type('text/html; charset=utf-8').code(400).send(await hosted(payment, gateway, request, `Error: Pay ${amount}`, panel));
      }
      if (check.outcome === 'second_step') {
        const panel = secondStepPanel({ action: actionOf(payment), amount, merchant: deps.merchant.name, card: entry.card.replace(/\D/g, '') });
        return reply.type('text/html; charset=utf-8').send(await hosted(payment, gateway, request, `Confirm your payment of ${amount}`, panel));
      }
      decision = check.outcome === 'pays' ? 'pay' : 'decline';
    }
    const type = decision === 'pay' ? 'payment.succeeded' : decision === 'decline' ? 'payment.failed'
      : decision === 'confirm_later' && isCryptoGateway(gateway.type) ? 'payment.confirming' : null;
    if (!type) {
      return reply.type('text/html; charset=utf-8').code(400).send(page('Choose', '<h1>Choose how to pay</h1>', deps.demo, footer(request)));
    }
    const event = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      type,
      created: Math.floor(Date.now() / 1000),
      data: { paymentId: payment.id, invoiceid: payment.invoiceId, amount: payment.amountCents / 100, currency: payment.currency },
    };
    const rawBody = JSON.stringify(event);
    // Delivered through the server's own HTTP pipeline: same route, raw-body signature check and replay guard a provider meets.
    const delivery = await app.inject({
      method: 'POST',
      url: `/checkout/api/webhooks/${gateway.module}`,
      headers: { 'content-type': 'application/json', 'webhook-signature': signWebhook(gateway.webhookSecret, rawBody) },
      payload: rawBody,
    });
    if (delivery.statusCode !== 200) {
      request.log.error({ status: delivery.statusCode, body: delivery.body }, 'sandbox webhook refused');
      return reply.type('text/html; charset=utf-8').code(502).send(page('Not confirmed', '<h1>The payment could not be confirmed</h1><p>Please try again.</p>', deps.demo, footer(request)));
    }
    return reply.redirect(payment.returnPath, 303);
  });
}
