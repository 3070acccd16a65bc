/**
 * A fake of the hosted-link card processor, built from the protocol the README documents ("hostedlink"):
 * it verifies a link's signature and expiry, shows a hosted page with Pay and Decline, then calls back
 * (POST, Webhook-Signature over the callback's canonical string) before it returns the shopper.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { signCallback, verifyLink, type CallbackFields, type LinkFields } from '../../../src/server/payments/hostedlink/canonical';
import { escape, postJson, readBody, redirect, sendHtml } from './http';

export interface HostedlinkFakeOptions {
  secret: string;
  /** Where callbacks go (…/checkout/api/webhooks/hostedlink); set later with setCallbackUrl when unknown yet. */
  callbackUrl?: string;
  port?: number;
  host?: string;
}

export interface HostedlinkDelivery {
  callback: CallbackFields;
  status: number;
  text: string;
}

export class HostedlinkFake {
  readonly deliveries: HostedlinkDelivery[] = [];
  /** Links refused, with why (signature, expiry). */
  readonly refusals: string[] = [];
  private server: Server | null = null;
  private base = '';

  constructor(private readonly options: HostedlinkFakeOptions) {}

  /** HOSTEDLINK_URL for the checkout. */
  get payUrl(): string {
    return `${this.base}/pay`;
  }

  setCallbackUrl(url: string): void {
    this.options.callbackUrl = url;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: Error) => sendHtml(response, 500, 'Error', `<p>${escape(error.message)}</p>`));
    });
    await new Promise<void>((resolve) => this.server?.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', resolve));
    this.base = `http://${this.options.host ?? '127.0.0.1'}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The callback the processor sends for a link the shopper paid or declined (not sent yet). */
  callbackFor(link: LinkFields, status: CallbackFields['status'], paidAt = Math.floor(Date.now() / 1000)): CallbackFields {
    return { id: `hl_${randomUUID()}`, status, invoice: link.invoice, ref: link.ref, amount: link.amount, currency: link.currency, paidAt };
  }

  /** Sends a callback signed now (or at `t`) with the secret (or others). */
  async send(callback: CallbackFields, signing: { t?: number; secrets?: string[] } = {}): Promise<HostedlinkDelivery> {
    if (!this.options.callbackUrl) throw new Error('The hostedlink fake has no callback URL');
    const rawBody = JSON.stringify(callback);
    const answer = await postJson(this.options.callbackUrl, rawBody, {
      'content-type': 'application/json', 'webhook-signature': signCallback(signing.secrets ?? [this.options.secret], callback, signing.t),
    });
    const delivery = { callback, status: answer.status, text: answer.text };
    this.deliveries.push(delivery);
    return delivery;
  }

  /** The link's fields when its signature matches and it has not expired; otherwise why not. */
  check(query: URLSearchParams): { ok: true; link: LinkFields } | { ok: false; status: number; why: string } {
    const link = verifyLink(this.options.secret, query);
    if (!link) return { ok: false, status: 403, why: 'The link signature does not match.' };
    if (link.expires < Math.floor(Date.now() / 1000)) return { ok: false, status: 410, why: 'This payment link has expired.' };
    return { ok: true, link };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.base);
    if (url.pathname !== '/pay') return sendHtml(response, 404, 'Not found', '<h1>Not found</h1>');
    const query = request.method === 'POST' ? new URLSearchParams(await readBody(request)) : url.searchParams;
    const checked = this.check(query);
    if (!checked.ok) {
      this.refusals.push(checked.why);
      return sendHtml(response, checked.status, 'Refused', `<h1>${escape(checked.why)}</h1>`);
    }
    const { link } = checked;
    if (request.method === 'POST') {
      const decision = query.get('decision');
      await this.send(this.callbackFor(link, decision === 'pay' ? 'paid' : 'declined'));
      return redirect(response, link.return);
    }
    const hidden = [...url.searchParams].map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('');
    sendHtml(response, 200, `Pay ${link.amount} ${link.currency}`, `<h1>Card payment (fake processor)</h1><p>Invoice #${link.invoice}</p>
<p>Amount due: <strong>${escape(link.amount)} ${escape(link.currency)}</strong></p>
<form method="post">${hidden}<button name="decision" value="pay">Pay</button> <button name="decision" value="decline">Decline</button></form>`);
  }
}
