import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { PricingTable } from '../../domain/pricing';

/** Catalogue products in groups (retail, reseller), each sold for one billing cycle. */
export const products = pgTable('products', {
  pid: integer('pid').primaryKey(),
  group: text('product_group').$type<'retail' | 'reseller'>().notNull(),
  sortOrder: integer('sort_order').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  paytype: text('paytype').$type<'onetime' | 'recurring'>().notNull(),
  billingcycle: text('billingcycle').notNull(),
  pricing: jsonb('pricing').$type<PricingTable>().notNull(),
  configOptionIds: integer('config_option_ids').array().notNull().default(sql`'{}'::integer[]`),
  usernameFieldId: integer('username_field_id').notNull(),
  passwordFieldId: integer('password_field_id').notNull(),
  /** No longer sold (removed from the catalogue file); kept so its orders and services keep their history. */
  retired: boolean('retired').notNull().default(false),
});

/** Configurable options (2 extra connection, 4 proxy protection) priced per currency per cycle. */
export const configOptions = pgTable('config_options', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  pricing: jsonb('pricing').$type<PricingTable>().notNull(),
});

/**
 * Currencies the catalogue is priced in, with WHMCS semantics: the rate is units of this currency per
 * unit of the default currency, in which promotions' fixed amounts are kept. One default, at rate 1.
 */
export const currencies = pgTable('currencies', {
  code: text('code').$type<'EUR' | 'GBP'>().primaryKey(),
  rate: numeric('rate', { precision: 10, scale: 5, mode: 'number' }).notNull(),
  isDefault: boolean('is_default').notNull().default(false),
}, (table) => [
  uniqueIndex('currencies_one_default').on(table.isDefault).where(sql`${table.isDefault}`),
  check('currencies_rate_positive', sql`${table.rate} > 0`),
  check('currencies_default_rate_one', sql`not ${table.isDefault} or ${table.rate} = 1`),
]);

/** Promotions with WHMCS semantics; dates are text because 0000-00-00 means unbounded. */
export const promotions = pgTable('promotions', {
  id: serial('id').primaryKey(),
  code: text('code').notNull(),
  type: text('type').$type<'Percentage' | 'Fixed Amount'>().notNull(),
  value: numeric('value', { precision: 10, scale: 2, mode: 'number' }).notNull(),
  appliesto: text('appliesto').notNull(),
  startdate: text('startdate').notNull(),
  expirationdate: text('expirationdate').notNull(),
  maxuses: integer('maxuses').notNull().default(0),
  uses: integer('uses').notNull().default(0),
  /** Removed from the catalogue file: no longer accepted, its uses kept. */
  retired: boolean('retired').notNull().default(false),
  /** Applies again to each renewal of a service ordered with it (WHMCS's "recurring"); otherwise to the first period only. */
  recurring: boolean('recurring').notNull().default(false),
}, (table) => [uniqueIndex('promotions_code_key').on(sql`lower(${table.code})`)]);

/** Clients: guests have no password; e-mails are stored lower case. */
export const clients = pgTable('clients', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash'),
  reseller: boolean('reseller').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** When a link mailed to the address was first followed: whoever follows it reads that mail. */
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
});

export const orders = pgTable('orders', {
  id: serial('id').primaryKey(),
  clientId: integer('client_id').notNull().references(() => clients.id),
  kind: text('kind').$type<'retail' | 'reseller'>().notNull(),
  status: text('status').$type<'Pending' | 'Active' | 'Cancelled' | 'Fraud'>().notNull(),
  fraud: boolean('fraud').notNull().default(false),
  ip: text('ip').notNull(),
  country: text('country').notNull(),
  currency: text('currency').$type<'EUR' | 'GBP'>().notNull(),
  amountCents: integer('amount_cents').notNull(),
  promocode: text('promocode'),
  /** What the promotion took off, in cents, as priced when ordering (the receipt shows it; 0 without one). */
  discountCents: integer('discount_cents').notNull().default(0),
  affid: text('affid'),
  /** The shopper's language when ordering (browserLang, then the browser's): its mails are written in it. */
  locale: text('locale').notNull().default('en-en'),
  /** "Remind me if I don't finish": false when the shopper unticked it or used a reminder's opt-out link. */
  recoveryReminders: boolean('recovery_reminders').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (table) => [index('orders_ip_created_idx').on(table.ip, table.createdAt)]);

export const services = pgTable('services', {
  id: serial('id').primaryKey(),
  clientId: integer('client_id').notNull().references(() => clients.id),
  orderId: integer('order_id').notNull().references(() => orders.id),
  pid: integer('pid').notNull().references(() => products.pid),
  billingcycle: text('billingcycle').notNull(),
  status: text('status').$type<'Pending' | 'Active' | 'Suspended' | 'Terminated' | 'Cancelled' | 'Fraud'>().notNull(),
  username: text('username').unique(),
  /** AES-256-GCM ciphertext; service passwords are never stored in clear. */
  passwordEncrypted: text('password_encrypted'),
  serverHostname: text('server_hostname').notNull(),
  macAddress: text('mac_address').notNull().default(''),
  extraConnections: integer('extra_connections').notNull().default(0),
  proxyProtection: boolean('proxy_protection').notNull().default(false),
  notes: text('notes').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** The day the next period is due (UTC): set at activation, moved one cycle at each renewal; null for One Time. */
  nextDueDate: date('next_due_date', { mode: 'string' }),
  /** Renewal reminders wanted: false once the client used a reminder's opt-out link. */
  renewalReminders: boolean('renewal_reminders').notNull().default(true),
}, (table) => [
  index('services_client_idx').on(table.clientId), index('services_order_idx').on(table.orderId),
  index('services_due_idx').on(table.nextDueDate).where(sql`${table.nextDueDate} is not null`),
]);

/** Invoices pay an order, an upsell of extra connections on a service, or one more period of a service (renewal). */
export const invoices = pgTable('invoices', {
  id: serial('id').primaryKey(),
  clientId: integer('client_id').notNull().references(() => clients.id),
  kind: text('kind').$type<'order' | 'upsell' | 'renewal'>().notNull(),
  orderId: integer('order_id').references(() => orders.id),
  serviceId: integer('service_id').references(() => services.id),
  extraQuantity: integer('extra_quantity').notNull().default(0),
  status: text('status').$type<'Unpaid' | 'Paid' | 'Cancelled' | 'Refunded'>().notNull(),
  currency: text('currency').$type<'EUR' | 'GBP'>().notNull(),
  amountCents: integer('amount_cents').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  /** A renewal's period: from the due date it pays (period_start) to the next one (period_end). */
  periodStart: date('period_start', { mode: 'string' }),
  periodEnd: date('period_end', { mode: 'string' }),
}, (table) => [
  // One renewal invoice per service and period, however many instances issue it.
  uniqueIndex('invoices_renewal_period_key').on(table.serviceId, table.periodStart).where(sql`${table.kind} = 'renewal'`),
]);

/** Payment links handed to gateways; the id is the unguessable token in the link. */
export const payments = pgTable('payments', {
  id: text('id').primaryKey(),
  invoiceId: integer('invoice_id').notNull().references(() => invoices.id),
  gateway: text('gateway').notNull(),
  currency: text('currency').$type<'EUR' | 'GBP'>().notNull(),
  amountCents: integer('amount_cents').notNull(),
  status: text('status').$type<'Open' | 'Declined' | 'Confirming' | 'Paid'>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Webhook event ids already handled, so a replay changes nothing. */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').notNull(),
  gateway: text('gateway').notNull(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
}, (table) => [primaryKey({ columns: [table.gateway, table.id] })]);

/** The first answer to each Idempotency-Key, replayed to every retry with the same body. */
export const idempotencyKeys = pgTable('idempotency_keys', {
  scope: text('scope').notNull(),
  key: text('key').notNull(),
  requestHash: text('request_hash').notNull(),
  statusCode: integer('status_code').notNull(),
  response: jsonb('response').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (table) => [primaryKey({ columns: [table.scope, table.key] })]);

export const affiliateClicks = pgTable('affiliate_clicks', {
  id: serial('id').primaryKey(),
  affId: text('aff_id').notNull(),
  referer: text('referer').notNull(),
  ip: text('ip').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sessions: the cookie holds a random 256-bit id, the store only its SHA-256, so a copy of the store
 * signs no one in. A guest session reaches the orders placed in it; a sign-in reaches all of its client.
 */
export const sessions = pgTable('sessions', {
  idHash: text('id_hash').primaryKey(),
  clientId: integer('client_id').notNull().references(() => clients.id),
  kind: text('kind').$type<'guest' | 'signup' | 'password' | 'link'>().notNull(),
  orders: integer('orders').array().notNull().default(sql`'{}'::integer[]`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  idleExpiresAt: timestamp('idle_expires_at', { withTimezone: true }).notNull(),
  absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
}, (table) => [index('sessions_client_idx').on(table.clientId)]);

/**
 * Counters of the rate limits, shared by every instance on the store: per address and route, and failed
 * sign-ins per account. A counter starts again once its window has passed.
 */
export const rateCounters = pgTable('rate_counters', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
}, (table) => [index('rate_counters_reset_idx').on(table.resetAt)]);

/**
 * One-time sign-in links: the store holds only the token's keyed hash, so a copy of it signs no one in.
 * A link is used by setting used_at in the same statement that checks it is unused and unexpired.
 */
export const signInTokens = pgTable('sign_in_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  clientId: integer('client_id').notNull().references(() => clients.id),
  /** A same-site path under /checkout/, checked when the link was asked for. */
  redirectPath: text('redirect_path').notNull(),
  /** A recovery reminder's link: it reaches only this order, not the rest of the client's account. */
  orderId: integer('order_id').references(() => orders.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
}, (table) => [index('sign_in_tokens_expires_idx').on(table.expiresAt)]);

/** Display names of the payment gateways, from the catalogue file (the module's own name otherwise). */
export const gatewayNames = pgTable('gateway_names', {
  module: text('module').primaryKey(),
  displayname: text('displayname').notNull(),
});

/**
 * Verified payments that could not be applied (a closed invoice, an expired link, a wrong amount or
 * currency): never silently ignored, kept for the operator to refund or apply by hand.
 */
export const paymentExceptions = pgTable('payment_exceptions', {
  id: serial('id').primaryKey(),
  gateway: text('gateway').notNull(),
  eventId: text('event_id').notNull(),
  eventType: text('event_type').notNull(),
  paymentId: text('payment_id'),
  invoiceId: integer('invoice_id'),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  reason: text('reason').$type<'invoice_paid' | 'invoice_cancelled' | 'invoice_refunded' | 'link_expired' | 'amount_mismatch' | 'currency_mismatch' | 'unknown_payment'>().notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
}, (table) => [index('payment_exceptions_received_idx').on(table.receivedAt)]);

/** Keys an older demo store generated here; moved to DATA_DIR/secrets.json at the next demo start and never written again. */
export const secrets = pgTable('secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Mail to send, written in the same transaction as the event that causes it; one row per message key, so
 * an event retried or replayed queues it once. A worker claims a due row by moving next_attempt_at past a
 * lease (so one instance sends it), sends it, and marks it sent; the recipient and payload are then
 * blanked, as the store no longer needs them.
 */
export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  /** e.g. receipt:invoice:12, service-active:order:7 */
  messageKey: text('message_key').notNull().unique(),
  kind: text('kind').notNull(),
  /** Null once sent. */
  recipient: text('recipient'),
  locale: text('locale').notNull(),
  /** The facts the message states, rendered into text and HTML when it is sent; null once sent. */
  payload: jsonb('payload'),
  /** The Message-ID's local part: the same for every attempt, so a receiver can drop a repeat. */
  messageId: text('message_id').notNull(),
  /** skipped: a recovery reminder whose order was paid, closed or opted out by the time it came due. */
  status: text('status').$type<'pending' | 'sent' | 'failed' | 'skipped'>().notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  /** When a pending message is next due; while an attempt runs, the end of its lease. */
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  /** The claim of the attempt that runs (or ran last); only it may record the outcome. */
  leaseToken: text('lease_token'),
  /** SMTP error code and status of the last failure; never the server's free text (it can quote the address). */
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
}, (table) => [index('mail_outbox_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`)]);

/**
 * Undos the WHMCS adapter owes WHMCS: an order (CancelOrder) or invoice (UpdateInvoice Cancelled) that WHMCS took
 * but the checkout did not finish. Written before the undo is tried, retried by a job until WHMCS accepts it, and
 * listed for the operator meanwhile (npm run whmcs:unfinished). An undo of an unfinished request is due only after
 * a grace time and bound to its Idempotency-Key: a retry that finishes the request supersedes it.
 */
export const whmcsUndos = pgTable('whmcs_undos', {
  id: serial('id').primaryKey(),
  action: text('action').$type<'CancelOrder' | 'CancelInvoice'>().notNull(),
  /** The WHMCS order id (CancelOrder) or invoice id (CancelInvoice). */
  whmcsId: integer('whmcs_id').notNull(),
  /** price_changed: WHMCS's total was not the quote; unfinished: the request failed after WHMCS took it. */
  reason: text('reason').$type<'price_changed' | 'unfinished'>().notNull(),
  /** The Idempotency-Key the WHMCS record is bound to (a retry with it finishes the record instead). */
  claimScope: text('claim_scope'),
  claimKey: text('claim_key'),
  status: text('status').$type<'pending' | 'done' | 'superseded'>().notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  /** When the undo is next due (the checkout's clock); while an attempt runs, the end of its lease. */
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
  /** The claim of the attempt that runs; only it may record the outcome. */
  leaseToken: text('lease_token'),
  /** WHMCS's refusal or the transport's reason at the last attempt (WHMCS's messages name ids, not people). */
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  doneAt: timestamp('done_at', { withTimezone: true }),
}, (table) => [
  uniqueIndex('whmcs_undos_record_key').on(table.action, table.whmcsId),
  index('whmcs_undos_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
  index('whmcs_undos_claim_idx').on(table.claimScope, table.claimKey),
]);

/**
 * Flow traffic, aggregated when written (POST /flowEvents): counts per UTC day and names from the machines'
 * definitions only. No batch, no visitor and no address is kept; read out by GET /flowStats, small counts masked.
 */
export const flowTransitions = pgTable('flow_transitions', {
  day: date('day').notNull(),
  machine: text('machine').notNull(),
  /** The machine's transition label, as `npm run paths` and the studio name it. */
  transition: text('transition').notNull(),
  count: integer('count').notNull(),
}, (table) => [primaryKey({ columns: [table.day, table.machine, table.transition] })]);

/** Per day and state: how often it was entered and left, and how many visits ended in it (the machine's root id counts starts). */
export const flowStates = pgTable('flow_states', {
  day: date('day').notNull(),
  machine: text('machine').notNull(),
  state: text('state').notNull(),
  entries: integer('entries').notNull().default(0),
  exits: integer('exits').notNull().default(0),
  ended: integer('ended').notNull().default(0),
}, (table) => [primaryKey({ columns: [table.day, table.machine, table.state] })]);

/** Histograms of INP and LCP per day and state: how many measures fell in each bucket (upper bound in ms; -1 above the last). */
export const flowVitals = pgTable('flow_vitals', {
  day: date('day').notNull(),
  machine: text('machine').notNull(),
  state: text('state').notNull(),
  metric: text('metric').$type<'INP' | 'LCP'>().notNull(),
  bucketMs: integer('bucket_ms').notNull(),
  count: integer('count').notNull(),
}, (table) => [primaryKey({ columns: [table.day, table.machine, table.state, table.metric, table.bucketMs] })]);

/** The funnel: per day, locale and gateway ('' before one was chosen), how often each step was reached. */
export const flowFunnel = pgTable('flow_funnel', {
  day: date('day').notNull(),
  locale: text('locale').notNull(),
  gateway: text('gateway').notNull(),
  step: text('step').notNull(),
  count: integer('count').notNull(),
}, (table) => [primaryKey({ columns: [table.day, table.locale, table.gateway, table.step] })]);
