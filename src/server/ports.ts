import type { BillingPort } from './billing/port';
import { createLocalBilling } from './billing/local';
import type { Clock } from './clock';
import type { ServerConfig } from './config';
import type { Database } from './db/connect';
import { localFraudRules } from './fraud/local-rules';
import type { FraudPort } from './fraud/port';
import { smtpTransport, type MailTransport } from './mail/transport';
import { configuredGateways } from './payments/gateways';
import type { PaymentGateway } from './payments/port';
import type { ServerSecrets } from './secrets';

/** What a port is built from once the store is open and the keys are loaded. */
export interface PortContext {
  config: ServerConfig;
  db: Database;
  secrets: ServerSecrets;
  clock: Clock;
  /** Wakes the mail worker once a transaction that may have queued mail has committed. */
  mailQueued: () => void;
}

export type BillingFactory = (context: PortContext) => BillingPort;
export type PaymentsFactory = (context: PortContext) => PaymentGateway[];
export type FraudFactory = (context: PortContext & { billing: BillingPort }) => FraudPort;

/** The ports buildApp takes; main.ts picks them from the environment, tests hand in their own. */
export interface Ports {
  billing: BillingFactory;
  payments: PaymentsFactory;
  fraud: FraudFactory;
  /** Null keeps mail in the outbox (the demo without SMTP_URL). */
  mailer: MailTransport | null;
}

export const localBilling: BillingFactory = ({ config, db, secrets, clock, mailQueued }) => createLocalBilling(db, {
  encryptionKey: secrets.encryptionKey, serverHostname: config.serverHostname, catalogueTtlMs: config.catalogueTtlMs, clock, mailQueued,
});

export const gatewaysOfConfig: PaymentsFactory = ({ config, secrets }) => configuredGateways(config, secrets);

export const localFraud: FraudFactory = ({ config, billing, clock }) => localFraudRules(config.fraud, billing, clock);

/** The ports handed in, and for each one not handed in the implementation the environment names (BILLING, GATEWAYS, SMTP_URL). */
export function portsFromEnvironment(config: ServerConfig, given: Partial<Ports> = {}): Ports {
  const smtpUrl = config.mail.smtpUrl;
  return {
    billing: given.billing ?? localBilling,
    payments: given.payments ?? gatewaysOfConfig,
    fraud: given.fraud ?? localFraud,
    mailer: given.mailer !== undefined ? given.mailer : smtpUrl ? smtpTransport(smtpUrl, config.mail.from) : null,
  };
}
