import type { BillingPort } from '../billing/port';
import { storedLocale, type MailPayload, type OutboxRow } from './outbox';
import { renderMail, type MailLinks, type RenderedMail, type ServiceCredentials } from './templates';

export interface MailRendererOptions {
  links: MailLinks;
  /** MAIL_CREDENTIALS=on: the login details go into "service active" (read, decrypted, when it is rendered). */
  credentials: boolean;
  billing: Pick<BillingPort, 'service'>;
}

/**
 * Renders an outbox row when it is sent (or shown on the demo page). The login details are read from the
 * store at that moment, so the outbox never holds a password in clear.
 */
export function mailRenderer({ links, credentials, billing }: MailRendererOptions): (row: OutboxRow) => Promise<RenderedMail> {
  return async (row) => {
    const payload = row.payload as MailPayload | null;
    if (!payload) throw Object.assign(new Error(`Mail ${row.id} has no payload left (sent)`), { code: 'ENOPAYLOAD' });
    let found: ServiceCredentials[] | null = null;
    if (payload.kind === 'service-active' && credentials) {
      const services = await Promise.all(payload.services.map((service) => billing.service(service.id)));
      found = services.flatMap((service) => (service?.username && service.password
        ? [{ serviceId: service.id, username: service.username, password: service.password, serverHostname: service.serverHostname }]
        : []));
    }
    return renderMail(payload, storedLocale(row.locale), { links, credentials: found });
  };
}
