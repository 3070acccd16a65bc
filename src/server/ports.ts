import type { BillingPort } from './billing/port';
import { createLocalBilling } from './billing/local';
import { whmcsBillingFromConfig } from './billing/whmcs';
import type { Clock } from './clock';
import type { ServerConfig } from './config';
import type { Database } from './db/connect';
import type { ShopMetrics } from './ops/metrics';
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
  /** Where the ports time their calls to WHMCS and the payment providers. */
  metrics?: ShopMetrics;
  /** Wakes the mail worker once a transaction that may have queued mail has committed. */
  mailQueued: () => void;
  /** Where a port logs what the caller is not shown (WHMCS's refusals). */
  log?: { warn(object: object, message: string): void; error(object: object, message: string): void };
}

export type BillingFactory = (context: PortContext) => BillingPort;
export type PaymentsFactory = (context: PortContext) => PaymentGateway[];
export type FraudFactory = (context: PortContext & { billing: BillingPort }) => FraudPort;

/** The ports the app is given, every one: main.ts picks them from the environment, tests hand in their own. */
export interface Ports {
  billing: BillingFactory;
  payments: PaymentsFactory;
  fraud: FraudFactory;
  /** Null keeps mail in the outbox (the demo without SMTP_URL). */
  mailer: MailTransport | null;
}

export const localBilling: BillingFactory = ({ config, db, secrets, clock, mailQueued }) => createLocalBilling(db, {
  encryptionKey: secrets.encryptionKey, serverHostname: config.serverHostname, catalogueTtlMs: config.catalogueTtlMs, renewals: config.renewals, clock, mailQueued,
});

/** BILLING=whmcs: the adapter over WHMCS's API; the checkout's own records stay in the store. */
export const whmcsBilling: BillingFactory = ({ config, db, clock, mailQueued, log, metrics }) => {
  if (config.billing.kind !== 'whmcs') throw new Error('whmcsBilling needs BILLING=whmcs');
  return whmcsBillingFromConfig(config.billing, db, {
    gateways: config.gateways, catalogueTtlMs: config.catalogueTtlMs, serverHostname: config.serverHostname, clock, mailQueued, ...(log ? { log } : {}), ...(metrics ? { metrics } : {}),
  }).billing;
};

export const gatewaysOfConfig: PaymentsFactory = ({ config, secrets }) => configuredGateways(config, secrets);

export const localFraud: FraudFactory = ({ config, billing, clock }) => localFraudRules(config.fraud, billing, clock);

/** The implementation of each port the environment names (BILLING, GATEWAYS, SMTP_URL): what main.ts gives the app. */
export function portsFromEnvironment(config: ServerConfig): Ports {
  const smtpUrl = config.mail.smtpUrl;
  return {
    billing: config.billing.kind === 'whmcs' ? whmcsBilling : localBilling,
    payments: gatewaysOfConfig,
    fraud: localFraud,
    mailer: smtpUrl ? smtpTransport(smtpUrl, config.mail.from) : null,
  };
}
