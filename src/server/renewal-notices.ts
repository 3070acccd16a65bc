/**
 * Renewal notices as they are sent: a notice queued by the renewal round (src/server/mail/outbox.ts, RenewalPayload)
 * is checked again against its invoice and service, and carries a signed opt-out link for that service's notices.
 */
import { and, eq } from 'drizzle-orm';
import { addDays, DAY_MS } from '../domain/billing-cycle';
import type { Locale } from '../domain/locale';
import type { CatalogueTranslations } from './catalogue/load';
import type { RenewalsConfig } from './config';
import type { Database } from './db/connect';
import { invoices, orders, products, services } from './db/schema';
import { storedLocale, type RenewalPayload } from './mail/outbox';
import { fill, MAIL_TEXTS, type MailTexts } from './mail/texts';
import { translatedProduct } from './merchant';
import { optOutLinks, type OptOutPage } from './opt-out';

/** The opt-out page of a service's renewal notices (src/server/opt-out.ts). */
export const RENEWAL_OPT_OUT_PATH = '/checkout/renewals/opt-out';
/** A notice's renew link works 7 days: the next notice, at most RENEWAL_INVOICE_DAYS (7) later, brings a fresh one. */
export const RENEWAL_LINK_TTL_MS = 7 * DAY_MS;

/** What a notice finds when it is sent: send it (to which client, naming the plan how, with which days ahead), or skip it and why. */
export type RenewalNoticeCheck =
  | { send: true; clientId: number; serviceName: string; suspendsOn: string; terminatesOn: string }
  | { send: false; reason: 'no_invoice' | 'not_unpaid' | 'opted_out' };

export interface RenewalNotices {
  /** Reads the invoice and its service again when a notice is sent. */
  check(payload: RenewalPayload, locale: Locale): Promise<RenewalNoticeCheck>;
  /** The one-click opt-out link of a service's renewal notices: signed, so no one stops another's by guessing ids. */
  optOutUrl(serviceId: number): string;
  /** The opt-out page: it turns the service's notices off and answers in its order's language. */
  optOutPage: OptOutPage;
}

/** A plan as the notices and their page name it: its name in the locale and the service's number. */
const planText = (texts: MailTexts, name: string, serviceId: number) => fill(texts.receipt.forService, { name, id: serviceId });

export function createRenewalNotices({ db, secret, publicUrl, renewals, translations }: {
  db: Database; secret: string; publicUrl: string; renewals: RenewalsConfig; translations: CatalogueTranslations;
}): RenewalNotices {
  // Keyed and apart from session ids, sign-in links and recovery reminders' opt-outs.
  const optOut = optOutLinks(secret, publicUrl, RENEWAL_OPT_OUT_PATH, 'renewal-opt-out');
  const planName = (pid: number, name: string, locale: Locale) => translatedProduct({ pid, name }, locale, translations).name;

  return {
    async check(payload, locale) {
      const [row] = await db.select({ status: invoices.status, clientId: invoices.clientId, reminders: services.renewalReminders, pid: services.pid })
        .from(invoices).innerJoin(services, eq(services.id, invoices.serviceId))
        .where(and(eq(invoices.id, payload.invoiceId), eq(invoices.kind, 'renewal'), eq(invoices.serviceId, payload.serviceId)));
      if (!row) return { send: false, reason: 'no_invoice' };
      // The termination cancels the invoice it tells about; every earlier notice is moot once the invoice is closed.
      if (payload.stage !== 'terminated' && row.status !== 'Unpaid') return { send: false, reason: 'not_unpaid' };
      if (!row.reminders) return { send: false, reason: 'opted_out' };
      return {
        send: true, clientId: row.clientId, serviceName: planName(row.pid, payload.productName, locale),
        suspendsOn: addDays(payload.dueDate, renewals.graceDays), terminatesOn: addDays(payload.dueDate, renewals.terminateDays),
      };
    },

    optOutUrl: (serviceId) => optOut.url(serviceId),

    optOutPage: {
      links: optOut,
      async turnOff(serviceId) {
        const [service] = await db.update(services).set({ renewalReminders: false }).where(eq(services.id, serviceId)).returning({ orderId: services.orderId, pid: services.pid });
        if (!service) return null;
        const [found] = await db.select({ locale: orders.locale, name: products.name }).from(orders).innerJoin(products, eq(products.pid, service.pid)).where(eq(orders.id, service.orderId));
        const locale = storedLocale(found?.locale ?? '');
        const texts = MAIL_TEXTS[locale];
        const plan = planText(texts, planName(service.pid, found?.name ?? '', locale), serviceId);
        return { locale, title: texts.renewal.optedOutTitle, text: fill(texts.renewal.optedOutText, { service: plan }) };
      },
    },
  };
}
