import { eq } from 'drizzle-orm';
import { DAY_MS } from '../../domain/billing-cycle';
import type { Locale } from '../../domain/locale';
import type { Database } from '../db/connect';
import { orders } from '../db/schema';
import { storedLocale, type MailFlow, type MailPayload, type OutboxRow, type RenewalPayload } from './outbox';
import { localePath, renderMail, type MailLinks, type RenderedMail, type ServiceCredentials } from './templates';

/** A service's login details as the store keeps them: null until the service is provisioned. */
export interface ServiceLogin {
  id: number;
  username: string | null;
  password: string | null;
  serverHostname: string;
}

/** Where the login details of a service are read (the billing port). */
export interface ServiceLogins {
  service(serviceId: number): Promise<ServiceLogin | null>;
}

/** What a sign-in link in a mail does besides signing in: a new account's own confirmation makes its password usable. */
export type MailSignInPurpose = 'sign-in' | 'confirm-sign-up';

/** What a due recovery reminder finds when its order is read again: send it (to whom, for which flow, until when), or skip it. */
export type DueReminder =
  | { send: true; clientId: number; flow: Exclude<MailFlow, 'upsell'>; deadline: Date }
  | { send: false };

/** The recovery of unpaid orders (src/server/recovery.ts), as a reminder's mail uses it. */
export interface ReminderChecks {
  /** Reads the order again when its reminder comes due. */
  check(orderId: number): Promise<DueReminder>;
  /** The one-click opt-out link of an order's reminders. */
  optOutUrl(orderId: number): string;
}

/** What a renewal notice finds when it is sent: send it (to which client, naming the plan how, with the days ahead), or skip it. */
export type DueRenewalNotice =
  | { send: true; clientId: number; serviceName: string; suspendsOn: string; terminatesOn: string }
  | { send: false };

/** The renewal notices (src/server/renewal-notices.ts), as a notice's mail uses them. */
export interface RenewalNoticeChecks {
  /** Reads the invoice and its service again when a notice is sent. */
  check(payload: RenewalPayload, locale: Locale): Promise<DueRenewalNotice>;
  /** The one-click opt-out link of a service's renewal notices. */
  optOutUrl(serviceId: number): string;
}

export interface MailRendererOptions {
  links: MailLinks;
  /** MAIL_CREDENTIALS=on: the login details go into "service active" (read, decrypted, when it is rendered). */
  credentials: boolean;
  billing: ServiceLogins;
  /** Reads the client of a "service active" order. */
  db: Database;
  /** Makes a one-time sign-in link (src/server/sign-in.ts) for a client, landing on a checkout path (reaching one order only with `orderId`). */
  signInLink(clientId: number, redirectPath: string, ttlMs: number, orderId?: number, purpose?: MailSignInPurpose): Promise<string>;
  /** Lifetimes of a requested link, of the one in "service active", of a reminder's resume link and of a renewal notice's renew link. */
  ttl: { requested: number; activation: number; resume: number; renewal: number };
  /** Checks a due recovery reminder against its order, and makes its opt-out link. */
  recovery: ReminderChecks;
  /** Checks a renewal notice against its invoice and service, and makes its opt-out link. */
  renewals: RenewalNoticeChecks;
}

/** The landing of a reminder's resume link: the order's waiting page, which loads the order by its id. */
function resumeLanding(locale: Locale, flow: Exclude<MailFlow, 'upsell'>, orderId: number): string {
  return localePath(locale, `${flow === 'reseller' ? 'resellers/waiting' : 'waiting'}?orderid=${orderId}`);
}

/**
 * Renders an outbox row when it is sent (or shown on the demo page). The login details are read from the
 * store at that moment, so the outbox never holds a password in clear; sign-in links are made at that
 * moment too, so the outbox never holds a usable token. Null: nothing to send any more (a recovery reminder
 * whose order was paid, cancelled, flagged, opted out or past its deadline; a renewal notice whose invoice was
 * paid or whose service was opted out), and the worker skips the row.
 */
export function mailRenderer({ links, credentials, billing, db, signInLink, ttl, recovery, renewals }: MailRendererOptions): (row: OutboxRow) => Promise<RenderedMail | null> {
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
    if (payload.kind === 'renewal') {
      const found = await renewals.check(payload, locale);
      if (!found.send) return null;
      // The renewal page needs a signed-in client (a renewal invoice has no order a guest session could reach).
      const renewUrl = payload.stage === 'terminated' ? undefined : await signInLink(found.clientId, localePath(locale, `renew?serviceid=${payload.serviceId}`), ttl.renewal);
      return renderMail(payload, locale, {
        links,
        renewal: {
          serviceName: found.serviceName, renewUrl, renewLinkDays: Math.round(ttl.renewal / DAY_MS), optOutUrl: renewals.optOutUrl(payload.serviceId),
          suspendsOn: found.suspendsOn, terminatesOn: found.terminatesOn,
        },
      });
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
