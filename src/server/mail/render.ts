import { eq } from 'drizzle-orm';
import type { BillingPort } from '../billing/port';
import type { Database } from '../db/connect';
import { orders } from '../db/schema';
import type { SignInLinkPurpose } from '../sign-in';
import { resumeLanding, type Recovery } from '../recovery';
import { storedLocale, type MailPayload, type OutboxRow } from './outbox';
import { localePath, renderMail, type MailLinks, type RenderedMail, type ServiceCredentials } from './templates';

export interface MailRendererOptions {
  links: MailLinks;
  /** MAIL_CREDENTIALS=on: the login details go into "service active" (read, decrypted, when it is rendered). */
  credentials: boolean;
  billing: Pick<BillingPort, 'service'>;
  /** Reads the client of a "service active" order. */
  db: Database;
  /** Makes a one-time sign-in link (src/server/sign-in.ts) for a client, landing on a checkout path (reaching one order only with `orderId`). */
  signInLink(clientId: number, redirectPath: string, ttlMs: number, orderId?: number, purpose?: SignInLinkPurpose): Promise<string>;
  /** Lifetimes of a requested link, of the one in "service active" and of a reminder's resume link. */
  ttl: { requested: number; activation: number; resume: number };
  /** Checks a due recovery reminder against its order, and makes its opt-out link. */
  recovery: Pick<Recovery, 'check' | 'optOutUrl'>;
}

/**
 * Renders an outbox row when it is sent (or shown on the demo page). The login details are read from the
 * store at that moment, so the outbox never holds a password in clear; sign-in links are made at that
 * moment too, so the outbox never holds a usable token. Null: nothing to send any more (a recovery reminder
 * whose order was paid, cancelled, flagged, opted out or past its deadline), and the worker skips the row.
 */
export function mailRenderer({ links, credentials, billing, db, signInLink, ttl, recovery }: MailRendererOptions): (row: OutboxRow) => Promise<RenderedMail | null> {
  return async (row) => {
    const payload = row.payload as MailPayload | null;
    if (!payload) throw Object.assign(new Error(`Mail ${row.id} has no payload left (sent)`), { code: 'ENOPAYLOAD' });
    const locale = storedLocale(row.locale);
    if (payload.kind === 'recovery') {
      const found = await recovery.check(payload.orderId);
      if (!found.send) return null;
      const resumeUrl = await signInLink(found.clientId, resumeLanding(locale, found.flow, payload.orderId), ttl.resume, payload.orderId);
      return renderMail(payload, locale, { links, recovery: { resumeUrl, optOutUrl: recovery.optOutUrl(payload.orderId), deadline: found.deadline.toISOString() } });
    }
    if (payload.kind === 'sign-in-link') {
      return renderMail(payload, locale, { links, signInUrl: await signInLink(payload.clientId, payload.redirectPath, ttl.requested, undefined, payload.reason === 'sign-up' ? 'confirm-sign-up' : 'sign-in') });
    }
    let found: ServiceCredentials[] | null = null;
    let mailLinks = links;
    if (payload.kind === 'service-active') {
      if (credentials) {
        const services = await Promise.all(payload.services.map((service) => billing.service(service.id)));
        found = services.flatMap((service) => (service?.username && service.password
          ? [{ serviceId: service.id, username: service.username, password: service.password, serverHostname: service.serverHostname }]
          : []));
      }
      // The service page opens on any device, signed in: its link is a one-time sign-in link landing there.
      const [order] = await db.select({ clientId: orders.clientId }).from(orders).where(eq(orders.id, payload.orderId));
      const [first] = payload.services;
      if (order && first) {
        const landing = localePath(locale, `${payload.flow === 'reseller' ? 'resellers/success' : 'success'}?serviceid=${first.id}`);
        const url = await signInLink(order.clientId, landing, ttl.activation);
        mailLinks = { ...links, service: () => url };
      }
    }
    return renderMail(payload, locale, { links: mailLinks, credentials: found });
  };
}
