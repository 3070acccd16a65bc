import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { EXTRA_CONNECTION_OPTION_ID, MAX_CHECKOUT_PRODUCTS, PROXY_PROTECTION_OPTION_ID } from '../../../domain/constants';
import { generateServicePassword, generateUsername } from '../../../domain/credentials';
import { isCurrency, type Currency, type CurrencyRate } from '../../../domain/currency';
import type { PricingKey } from '../../../domain/billing-cycle';
import type { PricingTable } from '../../../domain/pricing';
import type { StoredPromotion } from '../../../domain/promotion';
import { systemClock, type Clock } from '../../clock';
import type { Database } from '../../db/connect';
import { affiliateClicks, clients, invoices, orders, payments, products, services, whmcsUndos } from '../../db/schema';
import { conflict } from '../../http-error';
import { queueOrderReceipt, queueServiceActive, queueUpsellReceipt } from '../../mail/outbox';
import type {
  BillingPort, CatalogueProduct, Client, IdempotencyClaim, InvoiceRecord, InvoiceStatus, OrderRecord, OrderStatus,
  NewOrder, PlacedOrder, ServiceRecord, ServiceStatus, SettleResult, StoredAnswer, UnfinishedRound,
} from '../port';

type UpsellAnswer = { invoiceid: number; paymentId: string; amountCents: number; currency: Currency; deadline: string };
import { collection, requireId, text, toCentsExact, toId, whmcsDate, WhmcsRefusal, WhmcsUnavailable, type WhmcsAnswer, type WhmcsClient } from './client';
import { phpSerializeBase64 } from './php-serialize';
import { cachedRead } from '../shared/cached-read';
import {
  afterMail, hasAnswer, idempotentWithCommittedClaim, recordAnswer, recordProgress, releaseClaim, requestInProgress, staleClaimKeys, takeClaim, yieldClaim,
} from '../shared/idempotency';
import { toClient } from '../shared/clients';
import { hasConfirmingPayment, insertPayment, readInvoiceProgress, readPayment, recordPaymentEvent } from '../shared/payment-records';
import type { Executor, Transaction } from '../shared/store';

export interface WhmcsBillingConfig {
  retailGid: number;
  resellerGid: number;
  /** The client group that marks a reseller. */
  resellerClientGroup: number;
  /** GATEWAYS, in order: the modules offered (a flagged order, which has no payment link, is placed with the first). */
  gateways: string[];
  catalogueTtlMs: number;
  serverHostname: string;
  /** Called once a transaction that may have queued mail has committed (the mail worker's nudge). */
  mailQueued?: () => void;
  log?: { warn(object: object, message: string): void; error(object: object, message: string): void };
  /** The time the checkout acts on (order times, caches, when an undo is due); the wall clock by default. */
  clock?: Clock;
  /** How long a WHMCS order or invoice of a failed request waits for a retry with its Idempotency-Key before it is undone. */
  unfinishedUndoAfterMs?: number;
}

/** WHMCS's custom field names for the service credentials and the device address. */
const USERNAME_FIELD = /^user\s*name$/i;
const PASSWORD_FIELD = /^password$/i;
const MAC_FIELD = /mac/i;
/** The contract's id of the device-address field (routes/services.ts), used when WHMCS names none. */
const DEFAULT_MAC_FIELD_ID = 13;
/** WHMCS's cycle names (promotions, services) by pricing key. */
const CYCLES: { key: PricingKey; name: string }[] = [
  { key: 'monthly', name: 'Monthly' }, { key: 'quarterly', name: 'Quarterly' }, { key: 'semiannually', name: 'Semi-Annually' },
  { key: 'annually', name: 'Annually' }, { key: 'biennially', name: 'Biennially' }, { key: 'triennially', name: 'Triennially' },
];
/** The claim scope of applying a payment in WHMCS (AddInvoicePayment, then AcceptOrder or UpdateClientProduct); its key is the payment id. */
export const APPLY_PAYMENT_SCOPE = 'whmcs-apply-payment';
/** A shopper retries a failed submit within minutes; after this the WHMCS record of an unfinished request is undone. */
export const UNFINISHED_UNDO_AFTER_MS = 30 * 60_000;
/** How long an undo's attempt holds its row (one WHMCS call takes at most 30 s). */
const UNDO_LEASE_MS = 2 * 60_000;
/** A refused undo is retried after this, doubled per attempt, at most hourly. */
const UNDO_RETRY_MS = 60_000;
const UNDO_MAX_RETRY_MS = 60 * 60_000;
/** Undos and payment applications taken per round of the job. */
const RESUME_BATCH = 20;

/** WHMCS invoiced another total than the quote: the order is undone, not kept for a retry (the shopper confirms a new total). */
class PriceChanged extends Error {
  constructor(readonly amount: number, readonly currency: Currency) {
    super('price changed');
  }
}

/** What a failed WHMCS call said, for the undo's row and the log: the action and WHMCS's words or the transport's reason. */
export function describeWhmcsError(error: unknown): string {
  if (error instanceof WhmcsRefusal) return `${error.action}: ${error.whmcsMessage}`.slice(0, 300);
  if (error instanceof WhmcsUnavailable) return `${error.action}: unavailable (${error.reason})`.slice(0, 300);
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}

const money = (cents: number) => (cents / 100).toFixed(2);
/** AddOrder's billingcycle values: lower case, hyphens and spaces removed, One Time as onetime. */
export const orderCycle = (cycle: string) => cycle.replace(/[-\s]/g, '').toLowerCase();
const SERVICE_STATUSES: ServiceStatus[] = ['Pending', 'Active', 'Suspended', 'Terminated', 'Cancelled', 'Fraud'];
const INVOICE_STATUSES: InvoiceStatus[] = ['Unpaid', 'Paid', 'Cancelled', 'Refunded'];

/** A pricing table from GetProducts' pricing.<CUR>: every cycle kept as a number (negative = not sold). */
function pricingTable(pricing: unknown): PricingTable {
  const table: PricingTable = {};
  if (!pricing || typeof pricing !== 'object') return table;
  for (const [code, cycles] of Object.entries(pricing as Record<string, unknown>)) {
    if (!isCurrency(code) || !cycles || typeof cycles !== 'object') continue;
    const row: Partial<Record<PricingKey, number>> = {};
    for (const { key } of CYCLES) {
      const cents = toCentsExact((cycles as Record<string, unknown>)[key]);
      row[key] = cents === null ? -1 : cents / 100;
    }
    table[code] = row;
  }
  return table;
}

/** The one cycle a product is sold for: One Time for a one-time product, else the first cycle priced in some currency. */
function productCycle(paytype: string, pricing: PricingTable): string {
  if (paytype === 'onetime' || paytype === 'free') return 'One Time';
  const sold = CYCLES.find(({ key }) => Object.values(pricing).some((row) => (row?.[key] ?? -1) >= 0));
  return sold?.name ?? 'Monthly';
}

/** The billing port over a WHMCS installation: WHMCS holds the truth; the checkout's store keeps its own records and a mirror row per id it uses. */
export function createWhmcsBilling(whmcs: WhmcsClient, db: Database, config: WhmcsBillingConfig): BillingPort {
  const clock = config.clock ?? systemClock;
  const mailed = afterMail(config);

  // ---------------------------------------------------------------------------------------------------
  // Catalogue

  const cached = <T>(read: () => Promise<T>) => cachedRead({ catalogueTtlMs: config.catalogueTtlMs, clock }, read);

  /** The sub-option (tblproductconfigoptionssub id) of each configurable option: UpdateClientProduct names it with a quantity. */
  const subOptionOf = new Map<number, number>();

  const toProduct = (raw: Record<string, unknown>, group: 'retail' | 'reseller'): CatalogueProduct | null => {
    const pid = toId(raw.pid);
    if (pid === null) return null;
    const paytype = text(raw.paytype) === 'recurring' ? 'recurring' : 'onetime';
    const pricing = pricingTable(raw.pricing);
    const fields = collection(raw, 'customfields', 'customfield');
    const fieldId = (pattern: RegExp) => toId(fields.find((field) => pattern.test(text(field.name).trim()))?.id) ?? 0;
    const configoptions = collection(raw, 'configoptions', 'configoption').flatMap((option) => {
      const id = toId(option.id);
      if (id !== EXTRA_CONNECTION_OPTION_ID && id !== PROXY_PROTECTION_OPTION_ID) return [];
      // A quantity or yes/no option has one sub-option carrying the price per unit.
      const [first] = collection(option, 'options', 'option');
      const sub = toId(first?.id);
      if (sub !== null) subOptionOf.set(id, sub);
      return [{ id, name: text(option.name), pricing: pricingTable(first?.pricing) }];
    });
    return {
      pid, name: text(raw.name), description: text(raw.description), group, paytype, billingcycle: productCycle(text(raw.paytype), pricing), pricing,
      configoptions, customFields: { username: fieldId(USERNAME_FIELD), password: fieldId(PASSWORD_FIELD) },
    };
  };

  const readGroup = async (gid: number, group: 'retail' | 'reseller') => {
    const answer = await whmcs.read('GetProducts', { gid });
    const found = collection(answer, 'products', 'product')
      // A product of another group (a WHMCS that ignores gid) is not this group's.
      .filter((raw) => toId(raw.gid) === null || toId(raw.gid) === gid)
      .map((raw) => toProduct(raw, group)).filter((product): product is CatalogueProduct => product !== null);
    return group === 'retail' ? found.slice(0, MAX_CHECKOUT_PRODUCTS) : found;
  };
  const cachedCatalogue = cached(async () => {
    const [retail, reseller] = await Promise.all([readGroup(config.retailGid, 'retail'), readGroup(config.resellerGid, 'reseller')]);
    return [...retail, ...reseller];
  });

  /** WHMCS's currency id of each code (AddClient's `currency`). */
  const currencyIdOf = new Map<string, number>();
  const cachedCurrencies = cached(async (): Promise<CurrencyRate[]> => {
    const answer = await whmcs.read('GetCurrencies');
    const rows = collection(answer, 'currencies', 'currency');
    const known = rows.filter((row) => isCurrency(text(row.code)));
    for (const row of known) {
      const id = toId(row.id);
      if (id !== null) currencyIdOf.set(text(row.code), id);
    }
    const rate = (row: Record<string, unknown>) => Number(text(row.rate)) || 1;
    // WHMCS's default currency has id 1 (rate 1); rates are units per unit of it.
    const defaultRow = known.find((row) => toId(row.id) === 1) ?? known.find((row) => rate(row) === 1) ?? known[0];
    return known.map((row) => ({ code: text(row.code) as Currency, rate: row === defaultRow ? 1 : rate(row), isDefault: row === defaultRow }))
      .sort((a, b) => a.code.localeCompare(b.code));
  });

  const cachedGatewayNames = cached(async () => {
    const answer = await whmcs.read('GetPaymentMethods');
    return Object.fromEntries(collection(answer, 'paymentmethods', 'paymentmethod')
      .filter((row) => config.gateways.includes(text(row.module)))
      .map((row) => [text(row.module), text(row.displayname)]));
  });

  const product = async (pid: number) => (await cachedCatalogue()).find((candidate) => candidate.pid === pid) ?? null;

  /** The mirror's product rows that service and receipt rows point at (the catalogue file may not name WHMCS's products). */
  const mirrorProducts = async (executor: Executor, pids: number[]) => {
    for (const pid of pids) {
      const found = await product(pid);
      if (!found) continue;
      await executor.insert(products).values({
        pid, group: found.group, sortOrder: 0, name: found.name, description: found.description, paytype: found.paytype, billingcycle: found.billingcycle,
        pricing: found.pricing, configOptionIds: found.configoptions.map((option) => option.id), usernameFieldId: found.customFields.username,
        passwordFieldId: found.customFields.password,
      }).onConflictDoNothing();
    }
  };

  // ---------------------------------------------------------------------------------------------------
  // Clients: WHMCS's; the mirror row keeps what the checkout adds (a password set here, the address proved).


  const mirrorClient = async (id: number, email: string, reseller: boolean | null) => {
    await db.insert(clients).values({ id, email: email.trim().toLowerCase(), reseller: reseller ?? false }).onConflictDoNothing();
    if (reseller) await db.update(clients).set({ reseller: true }).where(eq(clients.id, id));
    const [row] = await db.select().from(clients).where(eq(clients.id, id));
    return row ? toClient(row) : null;
  };

  /** The WHMCS client with exactly this address: GetClients searches by prefix with _ and % as wildcards, so the hits are filtered. */
  const findWhmcsClient = async (email: string) => {
    const wanted = email.trim().toLowerCase();
    const answer = await whmcs.read('GetClients', { search: wanted, limitnum: 100 });
    const hit = collection(answer, 'clients', 'client').find((row) => text(row.email).trim().toLowerCase() === wanted);
    if (!hit) return null;
    return { id: requireId(hit.id, 'GetClients', 'id'), email: wanted, reseller: toId(hit.groupid) === config.resellerClientGroup };
  };

  const addClient = async (email: string, currency: Currency | undefined) => {
    if (currency) await cachedCurrencies();
    try {
      const answer = await whmcs.write('AddClient', {
        // WHMCS bills a client in one currency, set when it is added (the shopper's country's).
        currency: currency ? currencyIdOf.get(currency) : undefined,
        firstname: 'TV Checkout', lastname: 'Client', email: email.trim().toLowerCase(), skipvalidation: true, noemail: true,
        // The shopper never uses this password: the checkout signs its own clients in.
        password2: randomBytes(24).toString('base64url'),
      });
      return requireId(answer.clientid, 'AddClient', 'clientid');
    } catch (error) {
      if (error instanceof WhmcsRefusal && /already exists/i.test(error.whmcsMessage)) return null;
      throw error;
    }
  };

  const clientByEmail = async (email: string): Promise<Client | null> => {
    const found = await findWhmcsClient(email);
    return found ? mirrorClient(found.id, found.email, found.reseller) : null;
  };

  // ---------------------------------------------------------------------------------------------------
  // Invoices, orders, services: read from WHMCS; the mirror row is refreshed with what was read.

  interface WhmcsInvoice { id: number; clientId: number; status: InvoiceStatus; totalCents: number; transids: string[] }
  const getInvoice = async (id: number): Promise<WhmcsInvoice | null> => {
    let answer: WhmcsAnswer;
    try {
      answer = await whmcs.read('GetInvoice', { invoiceid: id });
    } catch (error) {
      if (error instanceof WhmcsRefusal && /not found/i.test(error.whmcsMessage)) return null;
      throw error;
    }
    const status = text(answer.status);
    const totalCents = toCentsExact(answer.total);
    if (totalCents === null) throw new WhmcsRefusal('GetInvoice', 'no usable total in the answer');
    return {
      id, clientId: toId(answer.userid) ?? 0, totalCents,
      // WHMCS has more statuses (Draft, Overdue, Collections…): what is not paid, cancelled or refunded is still to be paid.
      status: (INVOICE_STATUSES as string[]).includes(status) ? status as InvoiceStatus : status === 'Overdue' || status === 'Draft' ? 'Unpaid' : 'Cancelled',
      transids: collection(answer, 'transactions', 'transaction').map((row) => text(row.transid)),
    };
  };

  /** The mirror row takes WHMCS's status, except a payment the checkout recorded and has not yet applied in WHMCS (it stays Paid). */
  const syncInvoice = async (id: number) => {
    const [mirror] = await db.select().from(invoices).where(eq(invoices.id, id));
    if (!mirror) return null;
    const found = await getInvoice(id);
    if (!found) return mirror;
    const status = mirror.status === 'Paid' && found.status === 'Unpaid' ? 'Paid' : found.status;
    if (status !== mirror.status) await db.update(invoices).set({ status }).where(eq(invoices.id, id));
    return { ...mirror, status };
  };

  interface WhmcsService {
    id: number; clientId: number; orderId: number; pid: number; name: string; billingcycle: string; status: ServiceStatus; username: string | null;
    password: string | null; serverHostname: string; macAddress: string; macFieldId: number; extraConnections: number; notes: string;
  }
  const toService = (raw: Record<string, unknown>): WhmcsService | null => {
    const id = toId(raw.id);
    if (id === null) return null;
    const fields = collection(raw, 'customfields', 'customfield');
    const field = (pattern: RegExp) => fields.find((candidate) => pattern.test(text(candidate.name).trim()));
    const options = collection(raw, 'configoptions', 'configoption');
    const extra = options.find((option) => toId(option.id) === EXTRA_CONNECTION_OPTION_ID);
    const status = text(raw.status);
    const username = text(field(USERNAME_FIELD)?.value) || text(raw.username);
    const password = text(field(PASSWORD_FIELD)?.value) || text(raw.password);
    return {
      id, clientId: toId(raw.clientid) ?? 0, orderId: toId(raw.orderid) ?? 0, pid: toId(raw.pid) ?? 0, name: text(raw.name),
      billingcycle: text(raw.billingcycle) || 'Monthly',
      status: (SERVICE_STATUSES as string[]).includes(status) ? status as ServiceStatus : status === 'Completed' ? 'Terminated' : 'Pending',
      username: username || null, password: password || null,
      serverHostname: text(raw.serverhostname) || config.serverHostname,
      macAddress: text(field(MAC_FIELD)?.value), macFieldId: toId(field(MAC_FIELD)?.id) ?? DEFAULT_MAC_FIELD_ID,
      extraConnections: toId(extra?.value) ?? 0, notes: text(raw.notes),
    };
  };

  const getService = async (id: number): Promise<WhmcsService | null> => {
    const answer = await whmcs.read('GetClientsProducts', { serviceid: id, limitnum: 1 });
    const raw = collection(answer, 'products', 'product').find((candidate) => toId(candidate.id) === id);
    return raw ? toService(raw) : null;
  };

  const serviceRecord = async (service: WhmcsService): Promise<ServiceRecord> => {
    const catalogued = await product(service.pid);
    const [mirrored] = catalogued ? [] : await db.select({ group: products.group }).from(products).where(eq(products.pid, service.pid));
    return {
      id: service.id, clientId: service.clientId, orderId: service.orderId, pid: service.pid, productName: service.name || catalogued?.name || `#${service.pid}`,
      productGroup: catalogued?.group ?? mirrored?.group ?? 'retail', billingcycle: service.billingcycle, status: service.status,
      // Our credentials sit in the custom fields from AddOrder on; a service is set up (has them) once it is no longer Pending.
      username: service.status === 'Pending' ? null : service.username, password: service.status === 'Pending' ? null : service.password,
      serverHostname: service.serverHostname, macAddress: service.macAddress,
      extraConnections: service.extraConnections, notes: service.notes,
    };
  };

  /** A mirror row for a service the checkout did not create (an upsell invoice points at it). */
  const mirrorService = async (service: WhmcsService) => {
    await db.insert(clients).values({ id: service.clientId, email: `whmcs-client-${service.clientId}@invalid` }).onConflictDoNothing();
    await mirrorProducts(db, [service.pid]);
    const [mirroredProduct] = await db.select({ group: products.group }).from(products).where(eq(products.pid, service.pid));
    if (!mirroredProduct) return false;
    // An order placed outside the checkout: a mirror row so the service's row can point at it (it has no invoice here, so order() does not serve it).
    await db.insert(orders).values({
      id: service.orderId, clientId: service.clientId, kind: mirroredProduct.group, status: 'Active', ip: '', country: '', currency: 'EUR', amountCents: 0,
    }).onConflictDoNothing();
    await db.insert(services).values({
      id: service.id, clientId: service.clientId, orderId: service.orderId, pid: service.pid, billingcycle: service.billingcycle, status: service.status,
      serverHostname: service.serverHostname,
    }).onConflictDoNothing();
    return true;
  };

  const readOrder = async (id: number): Promise<OrderRecord | null> => {
    const [order] = await db.select().from(orders).where(eq(orders.id, id));
    if (!order) return null;
    const [invoiceRow] = await db.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.orderId, id), eq(invoices.kind, 'order')));
    if (!invoiceRow) return null;
    const invoice = await syncInvoice(invoiceRow.id);
    const serviceRows = await db.select({ id: services.id }).from(services).where(eq(services.orderId, id)).orderBy(asc(services.id));
    let status: OrderStatus = order.status;
    // Cancelled or flagged in WHMCS by its operator: the order is what WHMCS says.
    if (status === 'Pending' && invoice?.status === 'Cancelled') {
      const first = serviceRows[0] ? await getService(serviceRows[0].id) : null;
      status = first?.status === 'Fraud' ? 'Fraud' : 'Cancelled';
      await db.update(orders).set({ status, fraud: status === 'Fraud' || order.fraud }).where(eq(orders.id, id));
    }
    return {
      id: order.id, clientId: order.clientId, kind: order.kind, status, fraud: order.fraud || status === 'Fraud', currency: order.currency,
      amountCents: order.amountCents, invoiceId: invoiceRow.id, invoiceStatus: invoice?.status ?? 'Unpaid', serviceIds: serviceRows.map((row) => row.id),
    };
  };

  // ---------------------------------------------------------------------------------------------------
  // Undos owed to WHMCS: a row is written first, then the undo is tried; one WHMCS refuses is retried by the job.

  type UndoAction = 'CancelOrder' | 'CancelInvoice';
  type UndoRow = typeof whmcsUndos.$inferSelect;
  const undoOf = (action: UndoAction, whmcsId: number) => and(eq(whmcsUndos.action, action), eq(whmcsUndos.whmcsId, whmcsId));
  const afterMs = (ms: number) => new Date(clock.now().getTime() + ms);

  /** Leases the next due undo (one UPDATE over a FOR UPDATE SKIP LOCKED pick, so two instances never take the same row). */
  const leaseUndo = async (only?: number): Promise<UndoRow | null> => {
    const due = db.select({ id: whmcsUndos.id }).from(whmcsUndos)
      .where(and(eq(whmcsUndos.status, 'pending'), lte(whmcsUndos.nextAttemptAt, clock.now()), only === undefined ? undefined : eq(whmcsUndos.id, only)))
      .orderBy(asc(whmcsUndos.nextAttemptAt), asc(whmcsUndos.id)).limit(1)
      .for('update', { skipLocked: true });
    const [row] = await db.update(whmcsUndos)
      .set({ leaseToken: randomBytes(16).toString('hex'), attempts: sql`${whmcsUndos.attempts} + 1`, nextAttemptAt: afterMs(UNDO_LEASE_MS) })
      .where(inArray(whmcsUndos.id, due)).returning();
    return row ?? null;
  };

  /** WHMCS's status of an order (GetOrders), or null when it has none by that id. */
  const whmcsOrderStatus = async (orderId: number) => {
    const answer = await whmcs.read('GetOrders', { id: orderId, limitnum: 1 });
    const row = collection(answer, 'orders', 'order').find((candidate) => toId(candidate.id) === orderId);
    return row ? text(row.status) : null;
  };

  /** Tries one leased undo: done once WHMCS accepts it (or shows it already undone), else due again later. */
  const attemptUndo = async (row: UndoRow): Promise<boolean> => {
    const ours = and(eq(whmcsUndos.id, row.id), eq(whmcsUndos.leaseToken, row.leaseToken ?? ''));
    try {
      if (row.action === 'CancelOrder') {
        try {
          await whmcs.write('CancelOrder', { orderid: row.whmcsId, cancelsub: true, noemail: true });
        } catch (error) {
          // "Not Pending": already cancelled or flagged (an earlier attempt whose answer was lost, or the operator) is what we wanted.
          if (!(error instanceof WhmcsRefusal && /not pending/i.test(error.whmcsMessage))) throw error;
          const status = await whmcsOrderStatus(row.whmcsId);
          if (status !== 'Cancelled' && status !== 'Fraud') throw error;
        }
      } else {
        await whmcs.write('UpdateInvoice', { invoiceid: row.whmcsId, status: 'Cancelled' });
      }
    } catch (error) {
      const retryInMs = Math.min(UNDO_RETRY_MS * 2 ** Math.max(0, row.attempts - 1), UNDO_MAX_RETRY_MS);
      await db.update(whmcsUndos).set({ leaseToken: null, lastError: describeWhmcsError(error), nextAttemptAt: afterMs(retryInMs) }).where(ours);
      config.log?.error({ undo: row.id, action: row.action, whmcsId: row.whmcsId, reason: row.reason, attempts: row.attempts, retryInMs, whmcs: describeWhmcsError(error) },
        'WHMCS did not accept an undo; it will be retried (npm run whmcs:unfinished lists it)');
      return false;
    }
    await db.update(whmcsUndos).set({ status: 'done', doneAt: clock.now(), leaseToken: null, lastError: null }).where(ours);
    config.log?.warn({ undo: row.id, action: row.action, whmcsId: row.whmcsId, reason: row.reason, attempts: row.attempts }, 'WHMCS accepted an undo');
    return true;
  };

  /** Owes WHMCS an undo due now and tries it at once; a refusal leaves it to the job. */
  const undoNow = async (action: UndoAction, whmcsId: number, reason: UndoRow['reason']) => {
    const [row] = await db.insert(whmcsUndos).values({ action, whmcsId, reason, nextAttemptAt: clock.now() })
      .onConflictDoUpdate({
        target: [whmcsUndos.action, whmcsUndos.whmcsId], set: { reason, nextAttemptAt: clock.now(), claimScope: null, claimKey: null },
        where: eq(whmcsUndos.status, 'pending'),
      }).returning({ id: whmcsUndos.id });
    const leased = row ? await leaseUndo(row.id) : null;
    if (leased) await attemptUndo(leased);
  };

  /** In the transaction that finishes a request: its record is no longer to be undone. False when an undo ran or runs. */
  const supersedeUndo = async (tx: Transaction, action: UndoAction, whmcsId: number) => {
    const superseded = await tx.update(whmcsUndos).set({ status: 'superseded', doneAt: clock.now() })
      .where(and(undoOf(action, whmcsId), eq(whmcsUndos.status, 'pending'), or(isNull(whmcsUndos.leaseToken), lt(whmcsUndos.nextAttemptAt, clock.now()))))
      .returning({ id: whmcsUndos.id });
    if (superseded.length > 0) return true;
    const [row] = await tx.select({ status: whmcsUndos.status }).from(whmcsUndos).where(undoOf(action, whmcsId));
    return !row;
  };

  /** A retry of a request whose record the job has undone: the key is freed for a new attempt, and the shopper told. */
  const refuseUndone = async (claim: IdempotencyClaim | null, action: UndoAction, whmcsId: number) => {
    const [row] = await db.select({ status: whmcsUndos.status }).from(whmcsUndos).where(undoOf(action, whmcsId));
    if (row?.status !== 'done') return;
    if (claim) await releaseClaim(db, claim);
    throw conflict('order_cancelled', 'This purchase was not completed in time and has been cancelled. Please start it again.');
  };

  /** What the first attempt of a key recorded once WHMCS took it (`whmcsOrder`, `whmcsInvoice`), and how to record it. */
  interface Attempt<T> {
    progress: Record<string, unknown>;
    record: (tx: Transaction, body: T) => Promise<void>;
    /**
     * After WHMCS took the request and a later step failed: the key keeps `progress` (a retry with it finishes the
     * record instead of making another) and the record is undone after a grace time unless a retry finishes it. Without
     * a key nothing can finish it: it is undone now.
     */
    keepUnfinished: (progress: Record<string, unknown>, action: UndoAction, whmcsId: number) => Promise<void>;
  }

  /** Runs `work` once per key: concurrent retries wait for the first answer; a failure before WHMCS took anything frees the key. */
  const idempotent = <T>(claim: IdempotencyClaim | null, work: (attempt: Attempt<T>) => Promise<T>): Promise<StoredAnswer<T>> =>
    idempotentWithCommittedClaim<T>(db, claim, ({ progress, record, keep }) => work({
      progress, record,
      async keepUnfinished(next, action, whmcsId) {
        let kept: boolean;
        try {
          kept = await keep(next, async (tx, bound) => {
            await tx.insert(whmcsUndos).values({
              action, whmcsId, reason: 'unfinished', claimScope: bound.scope, claimKey: bound.key, nextAttemptAt: afterMs(config.unfinishedUndoAfterMs ?? UNFINISHED_UNDO_AFTER_MS),
            }).onConflictDoNothing();
          });
        } catch (error) {
          // The store failed too: the key cannot be bound, so the record is undone now (a refusal is only logged).
          config.log?.error({ action, whmcsId, err: describeWhmcsError(error) }, 'WHMCS record of a failed request could not be kept for a retry; undoing it now');
          await undoNow(action, whmcsId, 'unfinished').catch((undoError: unknown) => {
            config.log?.error({ action, whmcsId, err: describeWhmcsError(undoError) }, 'WHMCS record left for the operator: neither kept nor undone');
          });
          return;
        }
        // Without a key nothing can finish the record: it is undone now.
        if (!kept) await undoNow(action, whmcsId, 'unfinished');
      },
    }));

  // ---------------------------------------------------------------------------------------------------
  // Applying a payment in WHMCS, exactly once: the intent (payment Paid in the store) is committed first; then a
  // claim per payment serialises instances; WHMCS's own transactions are checked for the transid before AddInvoicePayment.

  const applyPaymentInWhmcs = async (paymentId: string) => {
    const claim: IdempotencyClaim = { scope: APPLY_PAYMENT_SCOPE, key: paymentId, requestHash: '' };
    const state = await takeClaim<unknown>(db, claim, false);
    if (!state.mine) return;
    try {
      const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
      if (!payment || payment.status !== 'Paid') throw new Error(`Payment ${paymentId} is not recorded as paid`);
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, payment.invoiceId));
      if (!invoice) throw new Error(`Invoice ${payment.invoiceId} has no mirror row`);
      const inWhmcs = await getInvoice(invoice.id);
      if (!inWhmcs) throw new WhmcsRefusal('GetInvoice', `invoice ${invoice.id} not found`);
      if (inWhmcs.status !== 'Paid' && !inWhmcs.transids.includes(paymentId)) {
        await whmcs.write('AddInvoicePayment', { invoiceid: invoice.id, transid: paymentId, amount: money(payment.amountCents), gateway: payment.gateway });
      }
      if (invoice.kind === 'upsell' && invoice.serviceId) {
        // The quantity after this invoice, fixed once and recorded in the claim before WHMCS is changed: a retry after
        // an unknown outcome sets the same quantity again instead of adding the invoice's a second time.
        let quantity = typeof state.progress.quantity === 'number' ? state.progress.quantity : null;
        if (quantity === null) {
          const service = await getService(invoice.serviceId);
          if (!service) throw new WhmcsRefusal('GetClientsProducts', `service ${invoice.serviceId} not found`);
          quantity = service.extraConnections + invoice.extraQuantity;
          await recordProgress(db, claim, { quantity });
        }
        await cachedCatalogue();
        const sub = subOptionOf.get(EXTRA_CONNECTION_OPTION_ID);
        // A quantity option is set as {cid: {optionid, qty}} (UpdateClientProduct docs).
        const value = sub === undefined ? quantity : { optionid: sub, qty: quantity };
        await whmcs.write('UpdateClientProduct', { serviceid: invoice.serviceId, configoptions: phpSerializeBase64({ [EXTRA_CONNECTION_OPTION_ID]: value }) });
        await db.transaction(async (tx) => {
          await tx.update(services).set({ extraConnections: quantity as number }).where(eq(services.id, invoice.serviceId as number));
          await recordAnswer(tx, claim, { applied: true });
        });
        return;
      }
      if (invoice.orderId) {
        const orderId = invoice.orderId;
        try {
          await whmcs.write('AcceptOrder', { orderid: orderId, autosetup: true, sendemail: false });
        } catch (error) {
          // Accepted before (a retry after a crash): an order no longer Pending is what we wanted.
          if (!(error instanceof WhmcsRefusal && /not pending/i.test(error.whmcsMessage))) throw error;
        }
        const serviceRows = await db.select({ id: services.id }).from(services).where(eq(services.orderId, orderId));
        const read = await Promise.all(serviceRows.map((row) => getService(row.id)));
        await db.transaction(async (tx) => {
          await tx.update(orders).set({ status: 'Active' }).where(eq(orders.id, orderId));
          for (const service of read) if (service) await tx.update(services).set({ status: service.status === 'Pending' ? 'Active' : service.status }).where(eq(services.id, service.id));
          const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
          if (order?.kind === 'reseller') await tx.update(clients).set({ reseller: true }).where(eq(clients.id, order.clientId));
          await queueServiceActive(tx, orderId);
          await recordAnswer(tx, claim, { applied: true });
        });
        config.mailQueued?.();
        return;
      }
      await recordAnswer(db, claim, { applied: true });
    } catch (error) {
      await yieldClaim(db, claim).catch(() => undefined);
      throw error;
    }
  };

  /** A payment recorded here but not yet applied in WHMCS (a crash or an outage in between) is applied now. */
  const applyIfPending = async (paymentId: string | null) => {
    if (!paymentId) return;
    const [payment] = await db.select({ status: payments.status }).from(payments).where(eq(payments.id, paymentId));
    if (payment?.status !== 'Paid') return;
    if (await hasAnswer(db, { scope: APPLY_PAYMENT_SCOPE, key: paymentId })) return;
    await applyPaymentInWhmcs(paymentId);
  };

  /** The WHMCS order a key's first attempt placed, as recorded in its claim. */
  interface WhmcsOrderPlaced { orderId: number; invoiceId: number | null; serviceIds: number[] }
  const whmcsOrderOf = (value: unknown): WhmcsOrderPlaced | null => {
    if (!value || typeof value !== 'object') return null;
    const row = value as Record<string, unknown>;
    const orderId = toId(row.orderId);
    if (orderId === null) return null;
    const serviceIds = Array.isArray(row.serviceIds) ? row.serviceIds.map(toId).filter((id): id is number => id !== null) : [];
    return { orderId, invoiceId: toId(row.invoiceId), serviceIds };
  };

  /** The order placed in WHMCS (AddOrder), after the client's currency is checked. */
  const addWhmcsOrder = async (order: NewOrder): Promise<WhmcsOrderPlaced> => {
    // WHMCS invoices a client in its own currency only: an order in another would be invoiced at other figures.
    const details = await whmcs.read('GetClientsDetails', { clientid: order.clientId });
    const clientCurrency = text((details.client as Record<string, unknown> | undefined)?.currency_code ?? details.currency_code);
    if (clientCurrency && clientCurrency !== order.currency) {
      throw conflict('currency_not_offered', `Your account is billed in ${clientCurrency}. Please order in ${clientCurrency}.`);
    }
    const items = await Promise.all(order.items.map(async (item) => ({ item, product: await product(item.pid) })));
    const gateway = order.payment?.gateway ?? config.gateways[0] ?? 'sandbox';
    const added = await whmcs.write('AddOrder', {
      clientid: order.clientId,
      paymentmethod: gateway,
      pid: items.map(({ item }) => item.pid),
      billingcycle: items.map(({ item }) => orderCycle(item.billingcycle)),
      configoptions: items.map(({ item, product: found }) => {
        const offered = new Set(found?.configoptions.map((option) => option.id) ?? []);
        const chosen: Record<number, number> = {};
        if (offered.has(EXTRA_CONNECTION_OPTION_ID)) chosen[EXTRA_CONNECTION_OPTION_ID] = item.extraConnection ? 1 : 0;
        if (offered.has(PROXY_PROTECTION_OPTION_ID)) chosen[PROXY_PROTECTION_OPTION_ID] = item.proxyProtection ? 1 : 0;
        return phpSerializeBase64(chosen);
      }),
      // Our generated credentials, in the product's Username and Password custom fields.
      customfields: items.map(({ product: found }) => {
        const fields: Record<number, string> = {};
        if (found?.customFields.username) fields[found.customFields.username] = generateUsername();
        if (found?.customFields.password) fields[found.customFields.password] = generateServicePassword();
        return phpSerializeBase64(fields);
      }),
      promocode: order.promocode ?? undefined,
      affid: order.affid ?? undefined,
      clientip: order.ip,
      noemail: true,
    });
    return {
      orderId: requireId(added.orderid, 'AddOrder', 'orderid'), invoiceId: toId(added.invoiceid),
      serviceIds: text(added.serviceids ?? added.productids).split(',').map((id) => toId(id)).filter((id): id is number => id !== null),
    };
  };

  // ---------------------------------------------------------------------------------------------------

  return {
    products: async (group) => (await cachedCatalogue()).filter((candidate) => candidate.group === group),

    product,

    async promotion(code) {
      const answer = await whmcs.read('GetPromotions', { code });
      const row = collection(answer, 'promotions', 'promotion').find((candidate) => text(candidate.code).toLowerCase() === code.toLowerCase());
      if (!row) return null;
      const type = text(row.type);
      // Price Override and Free Setup are not sold through the checkout: their codes are not accepted.
      if (type !== 'Percentage' && type !== 'Fixed Amount') return null;
      const value = toCentsExact(row.value);
      if (value === null) return null;
      return {
        code: text(row.code), type, value: value / 100, appliesto: text(row.appliesto),
        startdate: whmcsDate(row.startdate) ?? '0000-00-00', expirationdate: whmcsDate(row.expirationdate) ?? '0000-00-00',
        maxuses: toId(row.maxuses) ?? 0, uses: toId(row.uses) ?? 0,
      } satisfies StoredPromotion;
    },

    currencies: cachedCurrencies,

    gatewayNames: cachedGatewayNames,

    clientByEmail,

    async clientById(id) {
      const [row] = await db.select().from(clients).where(eq(clients.id, id));
      if (row && !row.email.endsWith('@invalid')) return toClient(row);
      try {
        const answer = await whmcs.read('GetClientsDetails', { clientid: id });
        const details = (answer.client && typeof answer.client === 'object' ? answer.client : answer) as Record<string, unknown>;
        const email = text(details.email);
        if (!email) return null;
        if (row) await db.update(clients).set({ email: email.toLowerCase() }).where(eq(clients.id, id));
        return mirrorClient(id, email, toId(details.groupid) === config.resellerClientGroup);
      } catch (error) {
        if (error instanceof WhmcsRefusal && /not found/i.test(error.whmcsMessage)) return null;
        throw error;
      }
    },

    async validateLogin(email, password) {
      try {
        // Its userid is a USER's id (8.x): the e-mail already named the client.
        const answer = await whmcs.read('ValidateLogin', { email: email.trim().toLowerCase(), password2: password });
        return toId(answer.userid) !== null;
      } catch (error) {
        if (error instanceof WhmcsRefusal && /invalid/i.test(error.whmcsMessage)) return false;
        throw error;
      }
    },

    async createClient(input) {
      if (await findWhmcsClient(input.email)) return null;
      const id = await addClient(input.email, input.currency);
      if (id === null) return null;
      await db.insert(clients).values({ id, email: input.email.trim().toLowerCase(), passwordHash: input.passwordHash, reseller: input.reseller }).onConflictDoNothing();
      const [row] = await db.select().from(clients).where(eq(clients.id, id));
      return row ? toClient(row) : null;
    },

    async guestClient(email, currency) {
      const found = await clientByEmail(email);
      if (found) return found;
      const id = await addClient(email, currency);
      // Added by a concurrent request since the search: that one is the client.
      const client = id === null ? await clientByEmail(email) : await mirrorClient(id, email, false);
      if (!client) throw new Error('Guest client was not created');
      return client;
    },

    async ordersFromIpSince(ip, since) {
      const [row] = await db.select({ total: count() }).from(orders).where(and(eq(orders.ip, ip), gte(orders.createdAt, since)));
      return row?.total ?? 0;
    },

    placeOrder: (order, claim) => idempotent<PlacedOrder>(claim, async ({ progress, record, keepUnfinished }) => {
      // A retry of a key whose first attempt WHMCS took: that order is finished, never placed again.
      let placed = whmcsOrderOf(progress.whmcsOrder);
      if (placed) await refuseUndone(claim, 'CancelOrder', placed.orderId);
      else placed = await addWhmcsOrder(order);
      const { orderId, serviceIds } = placed;
      try {
        const invoiceId = requireId(placed.invoiceId, 'AddOrder', 'invoiceid');
        // AddOrder drops an inapplicable promotion silently: WHMCS's total must be our quote, or the order is undone.
        const invoice = await getInvoice(invoiceId);
        if (!invoice) throw new WhmcsRefusal('GetInvoice', `invoice ${invoiceId} of order ${orderId} not found`);
        if (invoice.totalCents !== order.amountCents) {
          await undoNow('CancelOrder', orderId, 'price_changed');
          const amount = invoice.totalCents / 100;
          throw new PriceChanged(amount, order.currency);
        }
        // FraudOrder again on a retry is harmless: it sets the same status.
        if (order.fraud) await whmcs.write('FraudOrder', { orderid: orderId, cancelsub: true });
        const status: OrderStatus = order.fraud ? 'Fraud' : 'Pending';
        const placedAt = clock.now();
        const body = await db.transaction(async (tx) => {
          if (!(await supersedeUndo(tx, 'CancelOrder', orderId))) throw requestInProgress();
          await mirrorProducts(tx, order.items.map((item) => item.pid));
          await tx.insert(orders).values({
            id: orderId, clientId: order.clientId, kind: order.kind, status, fraud: order.fraud, ip: order.ip, country: order.country,
            currency: order.currency, amountCents: order.amountCents, promocode: order.promocode, discountCents: order.discountCents ?? 0, affid: order.affid, locale: order.locale, createdAt: placedAt,
            recoveryReminders: typeof order.recoveryAfterMs === 'number',
          });
          if (serviceIds.length > 0) {
            await tx.insert(services).values(serviceIds.map((id, index) => ({
              id, clientId: order.clientId, orderId, pid: order.items[index]?.pid ?? order.items[0]?.pid ?? 0, billingcycle: order.items[index]?.billingcycle ?? 'Monthly',
              status, serverHostname: config.serverHostname, extraConnections: order.items[index]?.extraConnection ? 1 : 0,
              proxyProtection: order.items[index]?.proxyProtection ?? false,
            })));
          }
          const [mirrored] = await tx.insert(invoices).values({
            id: invoiceId, clientId: order.clientId, kind: 'order', orderId, status: order.fraud ? 'Cancelled' : 'Unpaid', currency: order.currency, amountCents: order.amountCents,
            createdAt: placedAt,
          }).returning();
          if (!mirrored) throw new Error('Invoice mirror was not written');
          const payment = order.payment ? await insertPayment(tx, mirrored, order.payment.gateway, order.payment.expiresAt) : null;
          if (payment && !order.fraud) {
            await queueOrderReceipt(tx, {
              orderId, invoiceId, clientId: order.clientId, kind: order.kind, items: order.items, promocode: order.promocode,
              amountCents: order.amountCents, currency: order.currency, deadline: payment.expiresAt, locale: order.locale,
              reminderDueAt: typeof order.recoveryAfterMs === 'number' ? new Date(placedAt.getTime() + order.recoveryAfterMs) : null,
            });
          }
          const answer = {
            orderid: orderId, invoiceid: invoiceId, serviceids: serviceIds, fraud: order.fraud, status, amount: order.amountCents / 100,
            currency: order.currency, paymentId: payment?.id ?? null, deadline: payment?.expiresAt.toISOString() ?? null,
          };
          await record(tx, answer);
          return answer;
        });
        return body;
      } catch (error) {
        if (error instanceof PriceChanged) throw conflict('price_changed', `The price is now ${error.amount.toFixed(2)} ${error.currency}. Please confirm the new total.`, { amount: error.amount, currency: error.currency });
        await keepUnfinished({ whmcsOrder: placed }, 'CancelOrder', orderId);
        throw error;
      }
    }).then(mailed),

    order: readOrder,

    async changeOrderStatus(id, from, to) {
      const current = await readOrder(id);
      if (!current || !from.includes(current.status)) return null;
      try {
        await whmcs.write(to === 'Fraud' ? 'FraudOrder' : 'CancelOrder', { orderid: id, cancelsub: true, ...(to === 'Cancelled' ? { noemail: true } : {}) });
      } catch (error) {
        // WHMCS cancels only a Pending order; a flagged one already has its services and invoice cancelled there (it stays Fraud in WHMCS).
        if (!(current.status === 'Fraud' && to === 'Cancelled' && error instanceof WhmcsRefusal && /not pending/i.test(error.whmcsMessage))) throw error;
      }
      await db.transaction(async (tx) => {
        await tx.update(orders).set({ status: to, ...(to === 'Fraud' ? { fraud: true } : {}) }).where(eq(orders.id, id));
        await tx.update(services).set({ status: to }).where(eq(services.orderId, id));
        await tx.update(invoices).set({ status: 'Cancelled' }).where(and(eq(invoices.orderId, id), eq(invoices.status, 'Unpaid')));
      });
      return readOrder(id);
    },

    async invoice(id) {
      const row = await syncInvoice(id);
      if (!row) return null;
      const { clientId, kind, orderId, serviceId, status, currency, amountCents } = row;
      return { id, clientId, kind, orderId, serviceId, status, currency, amountCents } satisfies InvoiceRecord;
    },

    createUpsellInvoice: (input, claim) => idempotent<UpsellAnswer>(claim, async ({ progress, record, keepUnfinished }) => {
      const service = await getService(input.serviceId);
      if (!service || !(await mirrorService(service))) throw new WhmcsRefusal('GetClientsProducts', `service ${input.serviceId} cannot be mirrored`);
      // A retry of a key whose first attempt WHMCS took: that invoice gets its link, no second one is made.
      let invoiceId = toId(progress.whmcsInvoice);
      if (invoiceId !== null) await refuseUndone(claim, 'CancelInvoice', invoiceId);
      else {
        const created = await whmcs.write('CreateInvoice', {
          userid: input.clientId, paymentmethod: input.payment.gateway, status: 'Unpaid', sendinvoice: false,
          itemdescription1: `Extra connections x${input.quantity} for service #${input.serviceId}`, itemamount1: money(input.amountCents), itemtaxed1: false,
        });
        invoiceId = requireId(created.invoiceid, 'CreateInvoice', 'invoiceid');
      }
      const whmcsInvoice = invoiceId;
      try {
        return await db.transaction(async (tx) => {
          if (!(await supersedeUndo(tx, 'CancelInvoice', whmcsInvoice))) throw requestInProgress();
          const [invoice] = await tx.insert(invoices).values({
            id: whmcsInvoice, clientId: input.clientId, kind: 'upsell', serviceId: input.serviceId, extraQuantity: input.quantity, status: 'Unpaid', currency: input.currency, amountCents: input.amountCents,
            createdAt: clock.now(),
          }).returning();
          if (!invoice) throw new Error('Invoice mirror was not written');
          const payment = await insertPayment(tx, invoice, input.payment.gateway, input.payment.expiresAt);
          await queueUpsellReceipt(tx, {
            invoiceId: whmcsInvoice, clientId: input.clientId, serviceId: input.serviceId, quantity: input.quantity, amountCents: invoice.amountCents,
            currency: invoice.currency, deadline: payment.expiresAt, locale: input.locale,
          });
          const body = { invoiceid: whmcsInvoice, paymentId: payment.id, amountCents: invoice.amountCents, currency: invoice.currency, deadline: payment.expiresAt.toISOString() };
          await record(tx, body);
          return body;
        });
      } catch (error) {
        await keepUnfinished({ whmcsInvoice }, 'CancelInvoice', whmcsInvoice);
        throw error;
      }
    }).then(mailed),

    async createPayment({ invoiceId, gateway, expiresAt }) {
      const invoice = await syncInvoice(invoiceId);
      if (!invoice) throw new Error(`Invoice ${invoiceId} not found`);
      const payment = await insertPayment(db, invoice, gateway, expiresAt);
      const found = await readPayment(db, payment.id);
      if (!found) throw new Error('Payment was not created');
      return found;
    },

    invoiceProgress: (invoiceId, now) => readInvoiceProgress(db, invoiceId, now),

    paymentConfirming: (invoiceId) => hasConfirmingPayment(db, invoiceId),

    payment: async (id) => {
      const found = await readPayment(db, id);
      if (!found) return null;
      // The invoice's status is WHMCS's (an operator may have cancelled it there).
      const invoice = await syncInvoice(found.invoiceId);
      return invoice ? { ...found, invoiceStatus: invoice.status } : found;
    },

    async settlePayment(gateway, event) {
      // WHMCS's word on the invoice before deciding (a closed invoice makes the payment an exception).
      const [known] = await db.select({ invoiceId: payments.invoiceId }).from(payments).where(eq(payments.id, event.paymentId));
      if (known) await syncInvoice(known.invoiceId);
      const result = await db.transaction(async (tx): Promise<SettleResult & { apply: string | null }> => {
        // The intent (invoice Paid in the mirror) is committed before WHMCS is called, so a crash or an outage leaves it to the next delivery.
        const recorded = await recordPaymentEvent(tx, gateway, event, clock.now());
        const applies = recorded.result.outcome === 'duplicate' || recorded.result.outcome === 'already_applied' || recorded.result.outcome === 'paid';
        return { ...recorded.result, apply: applies ? recorded.paymentId : null };
      });
      // Not yet in WHMCS (this delivery's, or one a crash or an outage left): applied now; a failure answers 503 so the provider delivers again.
      await applyIfPending(result.apply);
      const { apply: _applied, ...settled } = result;
      return settled;
    },

    async service(id) {
      const found = await getService(id);
      return found ? serviceRecord(found) : null;
    },

    async activeServices(clientId) {
      const answer = await whmcs.read('GetClientsProducts', { clientid: clientId, limitstart: 0, limitnum: 250 });
      const found = collection(answer, 'products', 'product').map(toService)
        .filter((service): service is WhmcsService => service !== null && service.status === 'Active' && service.clientId === clientId)
        .sort((a, b) => a.id - b.id);
      return Promise.all(found.map(serviceRecord));
    },

    async updateService(id, patch) {
      const found = await getService(id);
      if (!found) return null;
      if (patch.status === 'Terminated') await whmcs.write('ModuleTerminate', { serviceid: id });
      else if (patch.status && patch.status !== found.status) await whmcs.write('UpdateClientProduct', { serviceid: id, status: patch.status });
      if (patch.macAddress !== undefined) {
        await whmcs.write('UpdateClientProduct', { serviceid: id, customfields: phpSerializeBase64({ [found.macFieldId]: patch.macAddress }) });
      }
      if (patch.notes !== undefined) await whmcs.write('UpdateClientProduct', { serviceid: id, notes: patch.notes });
      if (patch.status) await db.update(services).set({ status: patch.status }).where(eq(services.id, id));
      const updated = await getService(id);
      return updated ? serviceRecord(updated) : null;
    },

    async provisionService(id) {
      const found = await getService(id);
      if (!found) return null;
      if (!found.username || found.status !== 'Active') await whmcs.write('ModuleCreate', { serviceid: id });
      const updated = await getService(id);
      if (updated) await db.update(services).set({ status: updated.status }).where(eq(services.id, id));
      return updated ? serviceRecord(updated) : null;
    },

    async restartService(id) {
      await whmcs.write('ModuleCustom', { serviceid: id, func_name: 'restart' });
    },

    async recordAffiliateClick({ affId, referer, ip }) {
      await db.insert(affiliateClicks).values({ affId, referer, ip });
    },

    async resumeUnfinished(): Promise<UnfinishedRound> {
      const round: UnfinishedRound = { undone: 0, undoRefused: 0, applied: 0, applyFailed: 0 };
      for (let taken = 0; taken < RESUME_BATCH; taken += 1) {
        const row = await leaseUndo();
        if (!row) break;
        if (await attemptUndo(row)) round.undone += 1;
        else round.undoRefused += 1;
      }
      // Payments whose application in WHMCS failed or was cut short and that no delivery has taken up since.
      for (const paymentId of await staleClaimKeys(db, APPLY_PAYMENT_SCOPE, RESUME_BATCH)) {
        const [payment] = await db.select({ invoiceId: payments.invoiceId }).from(payments).where(eq(payments.id, paymentId));
        try {
          await applyPaymentInWhmcs(paymentId);
          round.applied += 1;
        } catch (error) {
          round.applyFailed += 1;
          // The invoice, not the payment id: that id is the bearer token of the payment link.
          config.log?.error({ invoiceId: payment?.invoiceId ?? null, whmcs: describeWhmcsError(error) }, 'payment not yet applied in WHMCS; it will be retried (npm run whmcs:unfinished lists it)');
        }
      }
      return round;
    },
  };
}
