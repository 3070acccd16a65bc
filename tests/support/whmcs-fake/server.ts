/**
 * A fake WHMCS API (includes/api.php) built from the reference's facts (shared/reference/integrations.md
 * sections 1-3) and the public developer docs, with WHMCS's quirks kept: ids as numbers or numeric strings,
 * money as strings, missing or "" collections, `status` instead of `result` for a missing invoice, PHP
 * truthiness, silently dropped promotion codes, prefix LIKE searches, a non-idempotent AddInvoicePayment.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { decodeSerializedBase64, type PhpArray, type PhpValue } from './php-serialize';
import {
  CYCLE_KEYS, DEMO_SERVER_HOSTNAME, demoSeed, type ClientRow, type CycleKey, type InvoiceRow, type OrderRow, type ProductRow, type PromotionRow,
  type ServiceRow, type WhmcsSeed,
} from './seed';

export type FaultMode = 'none' | 'down' | 'slow' | 'invalid-ip' | 'warning' | 'html' | 'error';
export interface FaultOptions {
  /** Only these actions (any letter case) are faulted; every action when left out. */
  actions?: string[];
  /** slow: how long an answer waits (default 35 s, beyond the adapter's 30 s timeout). */
  delayMs?: number;
  /** How many matching calls are faulted before the fake answers normally again; every call when left out. */
  times?: number;
  /** warning: 'bare' is `{"warning": …}` alone (developer-docs issue 303), 'success' adds `"result":"success"`. Either way nothing is done. */
  warningShape?: 'bare' | 'success';
  /** error: the message of the `{"result":"error"}` answer (a business error, HTTP 200); nothing is done. */
  message?: string;
}
export interface WhmcsCall {
  action: string;
  params: Record<string, string>;
  /** The fault this call met, when one was armed for it: such a call was not carried out (slow ones were, late). */
  fault?: Exclude<FaultMode, 'none'>;
}
export interface WhmcsFakeOptions {
  port?: number;
  seed?: WhmcsSeed;
  identifier?: string;
  secret?: string;
  /** `$api_access_key`: a call that sends it skips the IP allow list. */
  accesskey?: string;
  /** The IP allow list; every address is allowed when left out. */
  allowedIps?: string[];
  /** The actions the API credential's role allows (any letter case); every action when left out. */
  allowedActions?: string[];
  /** Today, as the server's local date YYYY-MM-DD (promotion expiry); the real date by default. */
  today?: () => string;
}
export interface WhmcsFake {
  /** The full URL of …/includes/api.php. */
  url: string;
  port: number;
  identifier: string;
  secret: string;
  /** Every call that reached the fake, in order; secrets redacted. */
  calls: WhmcsCall[];
  /** The calls of one action (any letter case). */
  callsOf(action: string): WhmcsCall[];
  fault(mode: FaultMode, options?: FaultOptions): void;
  /** Stops listening: a connection is refused (ECONNREFUSED) until resume(), as when WHMCS's host is down. */
  suspend(): Promise<void>;
  /** Listens again on the same port. */
  resume(): Promise<void>;
  /** Makes the provisioning module fail the next `times` ModuleCreate (and so AcceptOrder with autosetup) with this message. */
  failModuleCreate(message: string, times?: number): void;
  state: Readonly<WhmcsSeed>;
  close(): Promise<void>;
}

export const DEFAULT_IDENTIFIER = 'fake-identifier';
export const DEFAULT_SECRET = 'fake-secret';
const REDACTED = '[redacted]';
const SECRET_PARAMS = new Set(['secret', 'password', 'password2', 'accesskey', 'servicepassword']);

type Params = Record<string, string>;
type Answer = Record<string, unknown>;
class ApiError extends Error {}

/** `pid[0]=1&pid[1]=2` or `pid[]=1&pid[]=2` (or a lone `pid=1`) as a list, in index order. */
function listParam(params: Params, name: string): string[] {
  const indexed: [number, string][] = [];
  let appended = 0;
  for (const [key, value] of Object.entries(params)) {
    if (key === `${name}[]`) indexed.push([1e9 + appended++, value]);
    const match = key.startsWith(`${name}[`) ? /^\[(\d+)\]$/.exec(key.slice(name.length)) : null;
    if (match) indexed.push([Number(match[1]), value]);
  }
  if (indexed.length === 0 && params[name] !== undefined) return [params[name]];
  return indexed.sort((a, b) => a[0] - b[0]).map(([, value]) => value);
}

/** PHP truthiness of a posted string: "", "0" and absence are false; everything else, "false" included, is true. */
export const phpTruthy = (value: string | undefined) => value !== undefined && value !== '' && value !== '0';

const toCents = (money: string | number) => Math.round(Number(money) * 100);
const money = (cents: number) => (cents / 100).toFixed(2);
const WHMCS_CYCLE_NAMES: Record<string, string> = {
  onetime: 'One Time', monthly: 'Monthly', quarterly: 'Quarterly', semiannually: 'Semi-Annually', annually: 'Annually',
  biennially: 'Biennially', triennially: 'Triennially', free: 'Free Account',
};
const CYCLE_MONTHS: Record<string, number> = { Monthly: 1, Quarterly: 3, 'Semi-Annually': 6, Annually: 12, Biennially: 24, Triennially: 36 };
const pricingKeyOf = (cycle: string): CycleKey | null => {
  const key = cycle.replace(/[-\s]/g, '').toLowerCase();
  if (key === 'onetime') return 'monthly';
  return (CYCLE_KEYS as readonly string[]).includes(key) ? (key as CycleKey) : null;
};
const nowStamp = () => new Date().toISOString().replace('T', ' ').slice(0, 19);
const localDate = () => {
  const date = new Date();
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};
const addMonths = (iso: string, months: number) => {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
};

/** MySQL `LIKE` (case-insensitive collation, backslash escape): `%` any run, `_` one character. */
export function sqlLike(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '\\' && index + 1 < pattern.length) source += (pattern[++index] as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (char === '%') source += '.*';
    else if (char === '_') source += '.';
    else source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'is');
}

/**
 * PHP's $_POST: only a POST whose content type is form-urlencoded or multipart is parsed; anything else
 * (a JSON body, a missing content type) reaches api.php as no fields at all.
 */
async function postFields(request: IncomingMessage, body: Buffer): Promise<Params> {
  const params: Params = {};
  const header = request.headers['content-type'] ?? '';
  const type = header.toLowerCase();
  if (request.method !== 'POST') return params;
  if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(body.toString('utf8'))) params[key] = value;
  } else if (type.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': header } }).formData().catch(() => null);
    for (const [key, value] of form ?? []) if (typeof value === 'string') params[key] = value;
  }
  return params;
}

function toXml(value: unknown, name: string): string {
  if (value === null || value === undefined) return `<${name}></${name}>`;
  if (Array.isArray(value)) return value.map((item) => toXml(item, name)).join('');
  if (typeof value === 'object') return `<${name}>${Object.entries(value as Record<string, unknown>).map(([key, item]) => toXml(item, key)).join('')}</${name}>`;
  return `<${name}><![CDATA[${String(value)}]]></${name}>`;
}

const HTML_ERROR_PAGE = '<!DOCTYPE html>\n<html><head><title>Oops! Something went wrong.</title></head>\n<body><h1>Oops!</h1><p>Something went wrong and we couldn\'t process your request.</p>\n<p>Please go back to the previous page and try again.</p></body></html>\n';

export async function createWhmcsFake(options: WhmcsFakeOptions = {}): Promise<WhmcsFake> {
  const state: WhmcsSeed = structuredClone(options.seed ?? demoSeed());
  const identifier = options.identifier ?? DEFAULT_IDENTIFIER;
  const secret = options.secret ?? DEFAULT_SECRET;
  const today = options.today ?? localDate;
  const calls: WhmcsCall[] = [];
  let fault: { mode: FaultMode; options: FaultOptions; left: number } = { mode: 'none', options: {}, left: Infinity };
  let moduleCreateFailure: { message: string; left: number } | null = null;
  const nextId = (rows: { id: number }[]) => rows.reduce((max, row) => Math.max(max, row.id), 0) + 1;
  let nextUserId = Math.max(500, ...state.users.map((user) => user.id)) + 1;

  const currencyById = (id: number) => state.currencies.find((currency) => currency.id === id) ?? state.currencies.find((currency) => currency.isDefault);
  const defaultCurrency = () => state.currencies.find((currency) => currency.isDefault) ?? state.currencies[0];
  const findClient = (id: string | undefined) => state.clients.find((client) => String(client.id) === String(id ?? '').trim());
  const findOrder = (id: string | undefined) => state.orders.find((order) => String(order.id) === String(id ?? '').trim());
  const findService = (id: string | undefined) => state.services.find((service) => String(service.id) === String(id ?? '').trim());
  const findInvoice = (id: string | undefined) => state.invoices.find((invoice) => String(invoice.id) === String(id ?? '').trim());
  const productOf = (pid: number) => state.products.find((product) => product.pid === pid);
  const invoiceTotals = (invoice: InvoiceRow) => {
    const subtotal = invoice.items.reduce((sum, item) => sum + toCents(item.amount), 0);
    const paid = state.transactions.filter((row) => row.invoiceid === invoice.id).reduce((sum, row) => sum + toCents(row.amountin), 0);
    return { subtotal, total: subtotal, balance: subtotal - paid };
  };

  // ---- Catalogue ----
  const productAnswer = (product: ProductRow) => ({
    pid: product.pid, gid: product.gid, type: product.type, name: product.name, slug: product.slug,
    'product-url': `https://whmcs.example.test/store/${product.slug}`, description: product.description, module: product.module,
    paytype: product.paytype, allowqty: 0, quantity_available: 0,
    pricing: Object.fromEntries(Object.entries(product.pricing).map(([code, row]) => {
      const currency = state.currencies.find((candidate) => candidate.code === code);
      return [code, { prefix: currency?.prefix ?? '', suffix: currency?.suffix ?? '', ...row }];
    })),
    customfields: {
      customfield: product.customfields.filter((field) => field.showOnOrderForm)
        .map((field) => ({ id: field.id, name: field.name, description: field.description, required: field.required ? 'on' : '' })),
    },
    configoptions: {
      configoption: product.configoptionIds.flatMap((id) => {
        const option = state.configOptions.find((candidate) => candidate.id === id);
        return option ? [{
          id: option.id, name: option.name, type: option.type, minqty: option.minqty, maxqty: option.maxqty,
          options: { option: option.options.map((sub) => ({ id: sub.id, name: sub.name, rawName: sub.name, recurring: 0, required: null, pricing: sub.pricing })) },
        }] : [];
      }),
    },
  });

  // ---- Promotions (reference §3); the API path skips the start date (observed) ----
  const promotionByCode = (code: string) => state.promotions.find((promotion) => promotion.code.toLowerCase() === code.trim().toLowerCase());
  const tokens = (list: string) => list.split(',').map((token) => token.trim()).filter(Boolean);
  const promotionUsable = (promotion: PromotionRow, client: ClientRow, pids: number[]) => {
    const expiry = promotion.expirationdate.slice(0, 10);
    if (expiry !== '0000-00-00' && today() > expiry) return false;
    if (promotion.maxuses > 0 && promotion.uses >= promotion.maxuses) return false;
    const clientOrders = state.orders.filter((order) => order.userid === client.id);
    if (promotion.newsignups && clientOrders.length > 0) return false;
    if (promotion.existingclient && !clientOrders.some((order) => order.status === 'Active')) return false;
    if (promotion.onceperclient && clientOrders.some((order) => ['Pending', 'Active'].includes(order.status) && order.promocode.toLowerCase() === promotion.code.toLowerCase())) return false;
    const requires = tokens(promotion.requires);
    if (requires.length) {
      const inOrder = pids.some((pid) => requires.includes(String(pid)));
      const existing = promotion.requiresexisting === 1 && state.services.some((service) => service.clientid === client.id && service.status === 'Active' && requires.includes(String(service.pid)));
      if (!inOrder && !existing) return false;
    }
    return true;
  };
  const promotionApplies = (promotion: PromotionRow, pid: number, cycleName: string, override: boolean) =>
    (override || tokens(promotion.appliesto).includes(String(pid))) && (promotion.cycles === '' || tokens(promotion.cycles).includes(cycleName));
  const promotionDiscount = (promotion: PromotionRow, amountCents: number, setupCents: number, currencyCode: string) => {
    const rate = Number(state.currencies.find((currency) => currency.code === currencyCode)?.rate ?? 1);
    const value = Number(promotion.value);
    switch (promotion.type) {
      case 'Percentage': return Math.round((amountCents * value) / 100);
      case 'Fixed Amount': return Math.min(Math.round(value * rate * 100), amountCents);
      case 'Price Override': return Math.max(0, amountCents - Math.round(value * rate * 100));
      case 'Free Setup': return setupCents;
      default: return 0;
    }
  };

  // ---- Services ----
  const moduleCreate = (service: ServiceRow) => {
    if (moduleCreateFailure && moduleCreateFailure.left > 0) {
      moduleCreateFailure.left -= 1;
      throw new ApiError(moduleCreateFailure.message);
    }
    const product = productOf(service.pid);
    const field = (name: string) => product?.customfields.find((candidate) => candidate.name === name)?.id;
    const usernameField = field('Username');
    const passwordField = field('Password');
    // The panel module takes the credentials from the order's custom fields when the service has none.
    if (!service.username && usernameField !== undefined) service.username = service.customfields[usernameField] ?? '';
    if (!service.password && passwordField !== undefined) service.password = service.customfields[passwordField] ?? '';
    service.serverhostname ||= DEMO_SERVER_HOSTNAME;
    service.serverip ||= '192.0.2.10';
    service.status = 'Active';
  };
  const serviceAnswer = (service: ServiceRow) => {
    const product = productOf(service.pid);
    const group = state.productGroups.find((candidate) => candidate.gid === product?.gid);
    const order = state.orders.find((candidate) => candidate.id === service.orderid);
    const method = state.paymentMethods.find((candidate) => candidate.module === service.paymentmethod);
    return {
      id: String(service.id), qty: '1', clientid: String(service.clientid), orderid: String(service.orderid), ordernumber: String(order?.ordernum ?? ''),
      pid: String(service.pid), regdate: service.regdate, name: product?.name ?? '', translated_name: product?.name ?? '',
      groupname: group?.name ?? '', translated_groupname: group?.name ?? '', domain: service.domain, dedicatedip: '',
      serverid: service.serverhostname ? '1' : '0', servername: service.serverhostname ? 'Panel' : '', serverip: service.serverip, serverhostname: service.serverhostname,
      suspensionreason: '', firstpaymentamount: service.firstpaymentamount, recurringamount: service.recurringamount,
      paymentmethod: service.paymentmethod, paymentmethodname: method?.displayname ?? service.paymentmethod, billingcycle: service.billingcycle,
      nextduedate: service.nextduedate, status: service.status, username: service.username, password: service.password,
      subscriptionid: '', promoid: String(service.promoid), overideautosuspend: '', overidesuspenduntil: '0000-00-00', ns1: '', ns2: '',
      assignedips: '', notes: service.notes, diskusage: '0', disklimit: '0', bwusage: '0', bwlimit: '0', lastupdate: '0000-00-00 00:00:00',
      customfields: {
        customfield: (product?.customfields ?? []).map((field) => ({ id: field.id, name: field.name, translated_name: field.name, value: service.customfields[field.id] ?? '' })),
      },
      configoptions: {
        configoption: (product?.configoptionIds ?? []).flatMap((id) => {
          const option = state.configOptions.find((candidate) => candidate.id === id);
          if (!option) return [];
          const chosen = service.configoptions[id];
          const type = { '1': 'dropdown', '2': 'radio', '3': 'yesno', '4': 'quantity' }[option.type];
          const value = option.type === '3' || option.type === '4'
            ? String(chosen?.qty ?? 0)
            : (option.options.find((sub) => sub.id === chosen?.optionid)?.name ?? '');
          return [{ id: String(option.id), option: option.name, type, value }];
        }),
      },
    };
  };
  /** `{cid: optionid}` or `{cid: {optionid, qty}}` (UpdateClientProduct); the plain form leaves qty 0, as WHMCS does. */
  const applyServiceConfigOptions = (service: ServiceRow, decoded: PhpArray) => {
    for (const [cid, value] of decoded) {
      if (value instanceof Map) service.configoptions[Number(cid)] = { optionid: Number(value.get('optionid') ?? 0), qty: Number(value.get('qty') ?? 0) };
      else service.configoptions[Number(cid)] = { optionid: Number(value ?? 0), qty: 0 };
    }
  };
  const applyCustomFields = (service: ServiceRow, decoded: PhpArray) => {
    const fields = productOf(service.pid)?.customfields ?? [];
    for (const [key, value] of decoded) {
      const field = fields.find((candidate) => candidate.id === Number(key) || candidate.name === String(key));
      if (field) service.customfields[field.id] = phpString(value);
    }
  };
  const phpString = (value: PhpValue): string => (value === null || value === false ? '' : value === true ? '1' : value instanceof Map ? 'Array' : String(value));

  // ---- Clients ----
  const clientAnswer = (client: ClientRow) => {
    const currency = currencyById(client.currency);
    const users = state.users.filter((user) => user.clientIds.includes(client.id));
    return {
      client_id: client.id, owner_user_id: client.ownerUserId, userid: client.id, id: client.id, uuid: client.uuid,
      firstname: client.firstname, lastname: client.lastname, fullname: `${client.firstname} ${client.lastname}`.trim(), companyname: client.companyname,
      email: client.email, address1: client.address1, address2: '', city: client.city, fullstate: client.state, state: client.state,
      postcode: client.postcode, countrycode: client.country, country: client.country, phonenumber: client.phonenumber, tax_id: '',
      billingcid: 0, notes: client.notes, currency: client.currency, defaultgateway: '', groupid: client.groupid, status: client.status, credit: '0.00',
      taxexempt: false, language: '', email_verified: false, lastlogin: '', currency_code: currency?.code ?? '',
      customfields: [],
      users: { user: users.map((user) => ({ id: user.id, name: `${user.firstname} ${user.lastname}`.trim(), email: user.email, is_owner: user.id === client.ownerUserId })) },
    };
  };

  // ---- Invoices ----
  const invoiceAnswer = (invoice: InvoiceRow) => {
    const totals = invoiceTotals(invoice);
    const transactions = state.transactions.filter((row) => row.invoiceid === invoice.id);
    return {
      invoiceid: invoice.id, invoicenum: '', userid: invoice.userid, date: invoice.date, duedate: invoice.duedate, datepaid: invoice.datepaid,
      lastcaptureattempt: '0000-00-00 00:00:00', subtotal: money(totals.subtotal), credit: '0.00', tax: '0.00', tax2: '0.00',
      total: money(totals.total), balance: money(totals.balance), taxrate: '0.000', taxrate2: '0.000', status: invoice.status,
      paymentmethod: invoice.paymentmethod, notes: invoice.notes, ccgateway: false,
      items: { item: invoice.items.map((item) => ({ ...item })) },
      transactions: transactions.length ? { transaction: transactions.map(transactionAnswer) } : '',
    };
  };
  const transactionAnswer = (row: WhmcsSeed['transactions'][number]) => ({
    id: String(row.id), userid: String(row.userid), currency: String(row.currency), gateway: row.gateway, date: row.date,
    description: row.description, amountin: row.amountin, fees: row.fees, amountout: '0.00', rate: '1.00000', transid: row.transid,
    invoiceid: String(row.invoiceid), refundid: '0',
  });

  const requireOrder = (params: Params, pendingOnly: boolean): OrderRow => {
    const order = findOrder(params.orderid);
    if (!order || (pendingOnly && order.status !== 'Pending')) throw new ApiError(pendingOnly ? 'Order ID not found or Status not Pending' : 'Order ID Not Found');
    return order;
  };
  const requireModuleService = (params: Params): ServiceRow => {
    const id = params.serviceid ?? params.accountid;
    if (!id) throw new ApiError('Service ID is required');
    const service = findService(id);
    if (!service) throw new ApiError('Service ID not found');
    if (!productOf(service.pid)?.module) throw new ApiError('Service not assigned to a module');
    return service;
  };

  const actions: Record<string, (params: Params) => Answer> = {
    getproducts(params) {
      const pids = params.pid ? tokens(params.pid) : null;
      const products = state.products.filter((product) =>
        (!pids || pids.includes(String(product.pid))) && (!params.gid || String(product.gid) === params.gid.trim()) && (!params.module || product.module === params.module));
      return { result: 'success', totalresults: products.length, ...(products.length ? { products: { product: products.map(productAnswer) } } : {}) };
    },
    getpromotions(params) {
      const rows = params.code ? state.promotions.filter((promotion) => promotion.code.toLowerCase() === params.code?.toLowerCase()) : state.promotions;
      return { result: 'success', totalresults: rows.length, ...(rows.length ? { promotions: { promotion: rows.map((row) => ({ ...row })) } } : {}) };
    },
    getcurrencies() {
      return {
        result: 'success', totalresults: state.currencies.length,
        currencies: { currency: state.currencies.map(({ id, code, prefix, suffix, format, rate }) => ({ id, code, prefix, suffix, format: String(format), rate })) },
      };
    },
    getpaymentmethods() {
      const rows = state.paymentMethods;
      return { result: 'success', totalresults: rows.length, ...(rows.length ? { paymentmethods: { paymentmethod: rows.map((row) => ({ ...row })) } } : {}) };
    },
    getclients(params) {
      const pattern = params.search ? sqlLike(`${params.search}%`) : null;
      const matching = state.clients.filter((client) =>
        (!pattern || [client.email, client.firstname, client.lastname, client.companyname, `${client.firstname} ${client.lastname}`].some((text) => pattern.test(text)))
        && (!params.status || client.status.toLowerCase() === params.status.toLowerCase()));
      const start = Number(params.limitstart ?? 0) || 0;
      const page = matching.slice(start, start + (Number(params.limitnum ?? 25) || 25));
      return {
        result: 'success', totalresults: matching.length, startnumber: start, numreturned: page.length,
        ...(page.length ? {
          clients: { client: page.map((client) => ({ id: client.id, firstname: client.firstname, lastname: client.lastname, companyname: client.companyname, email: client.email, datecreated: client.datecreated, groupid: client.groupid, status: client.status })) },
        } : {}),
      };
    },
    getclientsdetails(params) {
      const client = params.clientid
        ? findClient(params.clientid)
        : params.email ? state.clients.find((candidate) => candidate.email.toLowerCase() === params.email?.trim().toLowerCase()) : undefined;
      if (!client) throw new ApiError('Client Not Found');
      const details = clientAnswer(client);
      // The client's fields are also repeated at the top level (deprecated).
      return { result: 'success', ...details, client: details };
    },
    getusers(params) {
      const pattern = params.search ? sqlLike(`${params.search}%`) : null;
      const matching = state.users.filter((user) => !pattern || [user.email, user.firstname, user.lastname, `${user.firstname} ${user.lastname}`].some((text) => pattern.test(text)))
        .sort((a, b) => (params.sorting?.toUpperCase() === 'DESC' ? b.id - a.id : a.id - b.id));
      const start = Number(params.limitstart ?? 0) || 0;
      const page = matching.slice(start, start + (Number(params.limitnum ?? 25) || 25));
      // Unlike most list actions, `users` is a plain array (8.1+ docs).
      return {
        result: 'success', totalresults: matching.length, startnumber: start, numreturned: page.length,
        users: page.map((user) => ({
          id: user.id, firstname: user.firstname, lastname: user.lastname, email: user.email, datecreated: '2024-01-15 10:00:00', validationdata: '',
          clients: user.clientIds.map((id) => ({ id, isOwner: state.clients.find((client) => client.id === id)?.ownerUserId === user.id })),
        })),
      };
    },
    createssotoken(params) {
      const client = params.client_id ? findClient(params.client_id) : undefined;
      if (params.client_id && !client) throw new ApiError('Client ID Not Found');
      if (params.user_id && !state.users.some((user) => String(user.id) === params.user_id)) throw new ApiError('User ID Not Found');
      const token = randomBytes(20).toString('hex');
      return { result: 'success', access_token: token, redirect_url: `https://whmcs.example.test/oauth/singlesignon.php?access_token=${token}` };
    },
    addclient(params) {
      const skip = phpTruthy(params.skipvalidation);
      const email = (params.email ?? '').trim();
      const ownerId = params.owner_user_id ? Number(params.owner_user_id) : null;
      const owner = ownerId !== null ? state.users.find((user) => user.id === ownerId) : undefined;
      if (ownerId !== null && !owner) throw new ApiError('Invalid Owner User ID');
      if (!skip) {
        if (!params.firstname) throw new ApiError('You did not enter your first name');
        if (!params.lastname) throw new ApiError('You did not enter your last name');
      }
      if (!email) throw new ApiError('You did not enter your email address');
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ApiError('The email address you entered was not valid');
      if (!skip) {
        const required: [string, string][] = [['address1', 'You did not enter your  address line 1'], ['city', 'You did not enter your city'], ['state', 'You did not enter your state'], ['postcode', 'You did not enter your postcode'], ['country', 'Valid country required'], ['phonenumber', 'You did not enter your phone number']];
        for (const [field, message] of required) if (!params[field]) throw new ApiError(message);
      }
      if (!owner) {
        if (state.users.some((user) => user.email.toLowerCase() === email.toLowerCase())) throw new ApiError('A user already exists with that email address');
        // password2 is required for a new user even with skipvalidation (docs); this message is the fake's own.
        if (!params.password2) throw new ApiError('A password is required for the new user');
      }
      if (state.clients.some((client) => client.email.toLowerCase() === email.toLowerCase())) throw new ApiError('The email address entered is not available for use.');
      const clientId = nextId(state.clients);
      let userId = owner?.id;
      if (!owner) {
        userId = nextUserId++;
        state.users.push({ id: userId, firstname: params.firstname ?? '', lastname: params.lastname ?? '', email, password: params.password2 ?? '', clientIds: [clientId] });
      } else owner.clientIds.push(clientId);
      const currency = params.currency ? Number(params.currency) : defaultCurrency()?.id ?? 1;
      state.clients.push({
        id: clientId, uuid: `00000000-0000-4000-8000-${String(clientId).padStart(12, '0')}`, ownerUserId: userId as number,
        firstname: params.firstname ?? '', lastname: params.lastname ?? '', companyname: params.companyname ?? '', email,
        address1: params.address1 ?? '', city: params.city ?? '', state: params.state ?? '', postcode: params.postcode ?? '', country: params.country ?? '',
        phonenumber: params.phonenumber ?? '', currency, groupid: Number(params.groupid ?? 0) || 0, status: 'Active', datecreated: today(), notes: params.notes ?? '',
      });
      return { result: 'success', clientid: clientId, owner_id: userId };
    },
    validatelogin(params) {
      const user = state.users.find((candidate) => candidate.email.toLowerCase() === (params.email ?? '').trim().toLowerCase());
      if (!user || !params.password2 || user.password !== params.password2) throw new ApiError('Email or Password Invalid');
      return { result: 'success', userid: String(user.id), passwordhash: `$2y$10$fake.${Buffer.from(user.email).toString('hex').slice(0, 40)}`, twoFactorEnabled: 'false' };
    },
    addorder(params) {
      const client = findClient(params.clientid);
      if (!client) throw new ApiError('Client ID Not Found');
      if (client.status === 'Closed') throw new ApiError('Unable to add order when client status is Closed');
      const method = state.paymentMethods.find((row) => row.module === params.paymentmethod);
      if (!method) throw new ApiError(`Invalid Payment Method. Valid options include ${state.paymentMethods.map((row) => row.module).join(',')}`);
      if (params.clientip !== undefined && params.clientip !== '' && isIP(params.clientip) === 0) throw new ApiError('Invalid IP address provided');
      const pids = listParam(params, 'pid');
      const cycles = listParam(params, 'billingcycle');
      const configs = listParam(params, 'configoptions');
      const fields = listParam(params, 'customfields');
      const currency = currencyById(client.currency);
      const code = currency?.code ?? 'EUR';
      const items = pids.flatMap((pidText, index) => {
        const product = productOf(Number(pidText));
        if (!product) return [];
        const prices = product.pricing[code];
        const asked = (cycles[index] ?? '').toLowerCase();
        // A cycle not given, unknown or disabled falls back to the product's first enabled one, as the cart does.
        const enabled = product.paytype === 'onetime' ? ['onetime'] : product.paytype === 'free' ? ['free'] : CYCLE_KEYS.filter((key) => Number(prices?.[key] ?? -1) >= 0);
        const cycle = enabled.includes(asked) ? asked : (enabled[0] ?? 'monthly');
        const key = cycle === 'free' ? null : pricingKeyOf(cycle);
        const priceCents = key ? Math.max(0, toCents(prices?.[key] ?? '0')) : 0;
        const setupCents = key ? toCents(prices?.[`${key[0]}setupfee` as keyof typeof prices] ?? '0') : 0;
        const chosen: ServiceRow['configoptions'] = {};
        let optionsCents = 0;
        const decodedConfig = configs[index] ? decodeSerializedBase64(configs[index]) : null;
        for (const [cid, value] of decodedConfig ?? []) {
          const option = product.configoptionIds.includes(Number(cid)) ? state.configOptions.find((row) => row.id === Number(cid)) : undefined;
          if (!option) continue;
          const raw = value instanceof Map ? Number(value.get('qty') ?? value.get('optionid') ?? 0) : Number(value ?? 0);
          if (option.type === '3' || option.type === '4') {
            const qty = option.type === '3' ? (raw ? 1 : 0) : Math.min(Math.max(raw, option.minqty), option.maxqty || raw);
            const sub = option.options[0];
            chosen[option.id] = { optionid: sub?.id ?? 0, qty };
            if (sub && key) optionsCents += qty * Math.max(0, toCents(sub.pricing[code]?.[key] ?? '0'));
          } else {
            const sub = option.options.find((candidate) => candidate.id === raw);
            if (!sub) continue;
            chosen[option.id] = { optionid: sub.id, qty: 0 };
            if (key) optionsCents += Math.max(0, toCents(sub.pricing[code]?.[key] ?? '0'));
          }
        }
        // PHP's unserialize gives false for a wrong byte count: the values are silently not saved.
        const decodedFields = fields[index] ? decodeSerializedBase64(fields[index]) : null;
        return [{ product, cycleName: WHMCS_CYCLE_NAMES[cycle] ?? 'Monthly', priceCents, setupCents, optionsCents, chosen, decodedFields }];
      });
      if (items.length === 0) throw new ApiError('No items added to cart so order cannot proceed');

      const promotion = params.promocode ? promotionByCode(params.promocode) : undefined;
      const usable = promotion && promotionUsable(promotion, client, items.map((item) => item.product.pid)) ? promotion : undefined;
      let promoApplied = false;
      const orderId = nextId(state.orders);
      const invoiceId = phpTruthy(params.noinvoice) ? 0 : nextId(state.invoices);
      const invoiceItems: InvoiceRow['items'] = [];
      let itemId = state.invoices.flatMap((invoice) => invoice.items).reduce((max, item) => Math.max(max, item.id), 0);
      const serviceIds: number[] = [];
      let totalCents = 0;
      const date = today();
      for (const item of items) {
        const serviceId = nextId(state.services);
        const firstCents = item.priceCents + item.setupCents + item.optionsCents;
        let discountCents = 0;
        if (usable && promotionApplies(usable, item.product.pid, item.cycleName, phpTruthy(params.promooverride)) && !(usable.applyonce && promoApplied)) {
          discountCents = promotionDiscount(usable, item.priceCents + item.optionsCents, item.setupCents, code);
          promoApplied = true;
        }
        const recurring = item.cycleName === 'One Time' || item.cycleName === 'Free Account' ? 0 : item.priceCents + item.optionsCents;
        const service: ServiceRow = {
          id: serviceId, clientid: client.id, orderid: orderId, pid: item.product.pid, regdate: date, domain: '', serverhostname: '', serverip: '',
          firstpaymentamount: money(firstCents - discountCents), recurringamount: money(recurring - (usable?.recurring ? discountCents : 0)),
          billingcycle: item.cycleName, nextduedate: CYCLE_MONTHS[item.cycleName] ? date : '0000-00-00',
          paymentmethod: method.module, status: 'Pending', username: '', password: '', notes: '', promoid: discountCents ? (usable?.id ?? 0) : 0,
          customfields: {}, configoptions: item.chosen,
        };
        if (item.decodedFields) applyCustomFields(service, item.decodedFields);
        state.services.push(service);
        serviceIds.push(serviceId);
        totalCents += firstCents - discountCents;
        const group = state.productGroups.find((candidate) => candidate.gid === item.product.gid);
        const period = CYCLE_MONTHS[item.cycleName] ? ` (${date} - ${addMonths(date, CYCLE_MONTHS[item.cycleName] as number)})` : '';
        invoiceItems.push({ id: ++itemId, type: 'Hosting', relid: serviceId, description: `${group?.name ?? ''} - ${item.product.name}${period}`, amount: money(firstCents), taxed: 0 });
        if (discountCents) invoiceItems.push({ id: ++itemId, type: 'PromoHosting', relid: serviceId, description: `Promotional Code: ${usable?.code} - ${usable?.type === 'Percentage' ? `${Number(usable.value)}%` : `${usable?.value} ${usable?.type}`}`, amount: money(-discountCents), taxed: 0 });
      }
      if (promoApplied && usable) usable.uses += 1;
      state.orders.push({
        id: orderId, ordernum: 1000000000 + orderId * 7919, userid: client.id, date: nowStamp(), status: 'Pending',
        promocode: promoApplied ? (usable?.code ?? '') : '', promotype: promoApplied ? (usable?.type ?? '') : '', promovalue: promoApplied ? (usable?.value ?? '') : '',
        amount: money(totalCents), paymentmethod: method.module, invoiceid: invoiceId, ipaddress: params.clientip ?? '', affid: Number(params.affid ?? 0) || 0, serviceIds,
      });
      if (invoiceId) {
        state.invoices.push({
          id: invoiceId, userid: client.id, date, duedate: date, datepaid: totalCents === 0 ? nowStamp() : '0000-00-00 00:00:00',
          status: totalCents === 0 ? 'Paid' : 'Unpaid', paymentmethod: method.module, currencyCode: code, items: invoiceItems, notes: '',
        });
      }
      const ids = serviceIds.join(',');
      return { result: 'success', orderid: String(orderId), serviceids: ids, productids: ids, addonids: '', domainids: '', ...(invoiceId ? { invoiceid: invoiceId } : {}) };
    },
    acceptorder(params) {
      const order = requireOrder(params, true);
      const services = state.services.filter((service) => service.orderid === order.id);
      if (params.serviceusername) for (const service of services) service.username = params.serviceusername;
      if (params.servicepassword) for (const service of services) service.password = params.servicepassword;
      if (phpTruthy(params.autosetup)) {
        const errors: string[] = [];
        for (const service of services) {
          try {
            moduleCreate(service);
          } catch (error) {
            errors.push((error as Error).message);
          }
        }
        // A failed module create leaves the order Pending, so AcceptOrder can be retried.
        if (errors.length) throw new ApiError(errors.join(', '));
      }
      order.status = 'Active';
      return { result: 'success' };
    },
    cancelorder(params) {
      const order = requireOrder(params, true);
      order.status = 'Cancelled';
      for (const service of state.services) if (service.orderid === order.id) service.status = 'Cancelled';
      const invoice = state.invoices.find((row) => row.id === order.invoiceid);
      if (invoice?.status === 'Unpaid') invoice.status = 'Cancelled';
      return { result: 'success' };
    },
    fraudorder(params) {
      const order = requireOrder(params, false);
      order.status = 'Fraud';
      for (const service of state.services) if (service.orderid === order.id) service.status = 'Fraud';
      const invoice = state.invoices.find((row) => row.id === order.invoiceid);
      if (invoice?.status === 'Unpaid') invoice.status = 'Cancelled';
      return { result: 'success' };
    },
    getorders(params) {
      const matching = state.orders.filter((order) =>
        (!params.id || String(order.id) === params.id.trim()) && (!params.userid || String(order.userid) === params.userid.trim())
        && (!params.status || order.status.toLowerCase() === params.status.toLowerCase()))
        .sort((a, b) => b.id - a.id);
      const start = Number(params.limitstart ?? 0) || 0;
      const page = matching.slice(start, start + (Number(params.limitnum ?? 25) || 25));
      return {
        result: 'success', totalresults: matching.length, startnumber: start, numreturned: page.length,
        ...(page.length ? {
          orders: {
            order: page.map((order) => {
              const method = state.paymentMethods.find((row) => row.module === order.paymentmethod);
              const invoice = state.invoices.find((row) => row.id === order.invoiceid);
              const client = findClient(String(order.userid));
              const currency = currencyById(client?.currency ?? 0);
              return {
                id: order.id, ordernum: order.ordernum, userid: order.userid, contactid: 0, requestor_id: client?.ownerUserId ?? 0, admin_requestor_id: 0,
                date: order.date, nameservers: '', transfersecret: '', renewals: '', promocode: order.promocode, promotype: order.promotype,
                promovalue: order.promovalue, orderdata: '[]', amount: order.amount, paymentmethod: order.paymentmethod, invoiceid: order.invoiceid,
                status: order.status, ipaddress: order.ipaddress, fraudmodule: '', fraudoutput: '', notes: '', paymentmethodname: method?.displayname ?? '',
                paymentstatus: invoice?.status ?? '', name: `${client?.firstname ?? ''} ${client?.lastname ?? ''}`.trim(),
                currencyprefix: currency?.prefix ?? '', currencysuffix: currency?.suffix ?? '', frauddata: '', validationdata: '',
                lineitems: {
                  lineitem: order.serviceIds.map((serviceId) => {
                    const service = findService(String(serviceId));
                    return { type: 'product', relid: serviceId, producttype: 'Other', product: productOf(service?.pid ?? 0)?.name ?? '', domain: '', billingcycle: service?.billingcycle ?? '', amount: service?.firstpaymentamount ?? '0.00', status: service?.status ?? '' };
                  }),
                },
              };
            }),
          },
        } : {}),
      };
    },
    getinvoice(params) {
      const invoice = findInvoice(params.invoiceid);
      // The one answer with `status` where every other has `result` (reference §1).
      if (!invoice) return { status: 'error', message: 'Invoice ID Not Found' };
      return { result: 'success', ...invoiceAnswer(invoice) };
    },
    createinvoice(params) {
      const client = findClient(params.userid);
      if (!client) throw new ApiError('Client ID Not Found');
      if (phpTruthy(params.draft) && phpTruthy(params.sendinvoice)) throw new ApiError('Cannot create and send a draft invoice in a single API request. Please create and send separately.');
      const id = nextId(state.invoices);
      let itemId = state.invoices.flatMap((invoice) => invoice.items).reduce((max, item) => Math.max(max, item.id), 0);
      const items: InvoiceRow['items'] = [];
      for (let index = 1; params[`itemdescription${index}`] !== undefined || params[`itemamount${index}`] !== undefined; index += 1) {
        items.push({ id: ++itemId, type: '', relid: 0, description: params[`itemdescription${index}`] ?? '', amount: money(toCents(params[`itemamount${index}`] ?? '0')), taxed: phpTruthy(params[`itemtaxed${index}`]) ? 1 : 0 });
      }
      const status = phpTruthy(params.draft) ? 'Draft' : (['Paid', 'Unpaid', 'Cancelled', 'Refunded', 'Draft'].find((name) => name.toLowerCase() === (params.status ?? 'unpaid').toLowerCase()) ?? 'Unpaid') as InvoiceRow['status'];
      state.invoices.push({
        id, userid: client.id, date: params.date ?? today(), duedate: params.duedate ?? today(), datepaid: '0000-00-00 00:00:00', status,
        paymentmethod: params.paymentmethod ?? state.paymentMethods[0]?.module ?? '', currencyCode: currencyById(client.currency)?.code ?? 'EUR', items, notes: params.notes ?? '',
      });
      return { result: 'success', invoiceid: id, status };
    },
    updateinvoice(params) {
      const invoice = findInvoice(params.invoiceid);
      if (!invoice) throw new ApiError('Invoice ID Not Found');
      // The statuses this fake's invoices take (WHMCS also has Collections and Payment Pending).
      const status = ['Draft', 'Unpaid', 'Paid', 'Cancelled', 'Refunded'].find((name) => name.toLowerCase() === (params.status ?? '').toLowerCase());
      if (params.status !== undefined && !status) throw new ApiError('Invalid Status Provided');
      if (status) invoice.status = status as InvoiceRow['status'];
      if (params.notes !== undefined) invoice.notes = params.notes;
      return { result: 'success', invoiceid: invoice.id };
    },
    addinvoicepayment(params) {
      const invoice = findInvoice(params.invoiceid);
      if (!invoice) throw new ApiError('Invoice ID Not Found');
      if (invoice.status === 'Cancelled') throw new ApiError('It is not possible to add a payment to an invoice that is Cancelled');
      const before = invoiceTotals(invoice).balance;
      const amount = params.amount !== undefined && params.amount !== '' ? toCents(params.amount) : before;
      const client = findClient(String(invoice.userid));
      // No check on transid: the same one twice is two transactions, as in WHMCS.
      state.transactions.push({
        id: nextId(state.transactions), userid: invoice.userid, currency: client?.currency ?? 1, gateway: params.gateway ?? '',
        date: params.date || nowStamp(), description: 'Invoice Payment', amountin: money(amount), fees: money(toCents(params.fees ?? '0')),
        transid: params.transid ?? '', invoiceid: invoice.id,
      });
      if (invoice.status === 'Unpaid' && invoiceTotals(invoice).balance <= 0) {
        invoice.status = 'Paid';
        invoice.datepaid = params.date || nowStamp();
      }
      return { result: 'success' };
    },
    gettransactions(params) {
      const rows = state.transactions.filter((row) =>
        (!params.invoiceid || String(row.invoiceid) === params.invoiceid.trim()) && (!params.clientid || String(row.userid) === params.clientid.trim())
        && (!params.transid || row.transid === params.transid));
      return { result: 'success', totalresults: rows.length, startnumber: 0, numreturned: rows.length, ...(rows.length ? { transactions: { transaction: rows.map(transactionAnswer) } } : {}) };
    },
    getclientsproducts(params) {
      const matching = state.services.filter((service) =>
        (!params.clientid || String(service.clientid) === params.clientid.trim()) && (!params.serviceid || String(service.id) === params.serviceid.trim())
        && (!params.pid || String(service.pid) === params.pid.trim())
        && (!params.username2 || service.username === params.username2));
      const start = Number(params.limitstart ?? 0) || 0;
      // The docs say 25 by default; 8.7 returns every service when limitnum is left out (reference §2).
      const page = params.limitnum ? matching.slice(start, start + (Number(params.limitnum) || 0)) : matching.slice(start);
      return {
        result: 'success', clientid: params.clientid ?? null, serviceid: params.serviceid ?? null, pid: params.pid ?? null, domain: params.domain ?? null,
        totalresults: String(matching.length), startnumber: start, numreturned: page.length,
        products: page.length ? { product: page.map(serviceAnswer) } : '',
      };
    },
    updateclientproduct(params) {
      const service = findService(params.serviceid);
      if (!service) throw new ApiError('Service ID Not Found');
      if (params.customfields) {
        const decoded = decodeSerializedBase64(params.customfields);
        if (decoded) applyCustomFields(service, decoded);
      }
      if (params.configoptions) {
        const decoded = decodeSerializedBase64(params.configoptions);
        if (decoded) applyServiceConfigOptions(service, decoded);
      }
      if (params.notes !== undefined) service.notes = params.notes;
      if (params.status) service.status = params.status as ServiceRow['status'];
      if (params.serviceusername !== undefined) service.username = params.serviceusername;
      if (params.servicepassword !== undefined) service.password = params.servicepassword;
      if (params.nextduedate) service.nextduedate = params.nextduedate;
      if (params.recurringamount !== undefined && !phpTruthy(params.autorecalc)) service.recurringamount = money(toCents(params.recurringamount));
      for (const field of listParam(params, 'unset')) {
        if (field === 'notes') service.notes = '';
        if (field === 'serviceusername') service.username = '';
        if (field === 'servicepassword') service.password = '';
      }
      return { result: 'success', serviceid: String(service.id) };
    },
    modulecreate(params) {
      moduleCreate(requireModuleService(params));
      return { result: 'success' };
    },
    moduleterminate(params) {
      requireModuleService(params).status = 'Terminated';
      return { result: 'success' };
    },
    modulecustom(params) {
      const service = requireModuleService(params);
      // The panel module defines one custom function, restart; WHMCS answers its own text for any other.
      if (params.func_name !== 'restart') throw new ApiError('Function Not Found');
      if (service.status !== 'Active') throw new ApiError('Service is not active');
      return { result: 'success' };
    },
  };

  const send = (response: ServerResponse, status: number, body: Answer, responsetype: string | undefined) => {
    if (responsetype?.toLowerCase() === 'json') {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    } else {
      // Without responsetype=json WHMCS answers XML (reference §1).
      response.writeHead(status, { 'content-type': 'text/xml' }).end(`<?xml version="1.0" encoding="utf-8"?>\n${toXml(body, 'whmcsapi')}`);
    }
  };

  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = (request.url ?? '').split('?')[0];
    if (!path?.endsWith('/includes/api.php')) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>');
      return;
    }
    const params = await postFields(request, Buffer.concat(chunks));
    const actionName = params.action ?? '';
    const { action: _action, ...rest } = params;
    const call: WhmcsCall = { action: actionName, params: Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, SECRET_PARAMS.has(key) ? REDACTED : value])) };
    calls.push(call);
    const responsetype = params.responsetype;

    const faulted = fault.mode !== 'none' && fault.left > 0
      && (!fault.options.actions || fault.options.actions.some((name) => name.toLowerCase() === actionName.toLowerCase()));
    const mode = faulted ? fault.mode : 'none';
    // Read before the fault is disarmed: the last faulted call still needs its options (message, delay, shape).
    const faultOptions = faulted ? { ...fault.options } : {};
    if (faulted) {
      fault.left -= 1;
      if (fault.left <= 0) fault = { mode: 'none', options: {}, left: Infinity };
    }
    if (mode !== 'none') call.fault = mode;
    if (mode === 'down') {
      // The connection drops without an answer, as when WHMCS or its proxy is down.
      request.socket.destroy();
      return;
    }
    if (mode === 'slow') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, faultOptions.delayMs ?? 35_000);
        timers.add(timer);
      });
      if (response.destroyed || request.socket.destroyed) return;
    }
    if (mode === 'html') {
      response.writeHead(500, { 'content-type': 'text/html; charset=utf-8' }).end(HTML_ERROR_PAGE);
      return;
    }

    const remoteIp = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const accessKeyOk = options.accesskey !== undefined && params.accesskey === options.accesskey;
    if (options.accesskey !== undefined && params.accesskey !== undefined && !accessKeyOk) {
      send(response, 403, { result: 'error', message: 'Invalid Access Key' }, responsetype);
      return;
    }
    if (mode === 'invalid-ip' || (!accessKeyOk && options.allowedIps && !options.allowedIps.includes(remoteIp))) {
      send(response, 403, { result: 'error', message: `Invalid IP ${remoteIp}` }, responsetype);
      return;
    }
    const givenIdentifier = params.identifier ?? params.username;
    const givenSecret = params.secret ?? params.password;
    if (!givenIdentifier || !givenSecret) {
      send(response, 403, { result: 'error', message: 'Invalid or missing credentials' }, responsetype);
      return;
    }
    if (givenIdentifier !== identifier || givenSecret !== secret) {
      send(response, 403, { result: 'error', message: 'Authentication Failed' }, responsetype);
      return;
    }
    const handler = actions[actionName.toLowerCase()];
    if (!handler) {
      send(response, 200, { result: 'error', message: 'Command Not Found' }, responsetype);
      return;
    }
    if (options.allowedActions && !options.allowedActions.some((name) => name.toLowerCase() === actionName.toLowerCase())) {
      send(response, 403, { result: 'error', message: `Invalid Permissions: API action "${actionName.toLowerCase()}" is not allowed` }, responsetype);
      return;
    }
    if (mode === 'error') {
      send(response, 200, { result: 'error', message: faultOptions.message ?? 'An unexpected error occurred' }, responsetype);
      return;
    }
    if (mode === 'warning') {
      const warning = 'Invalid or Missing Payment Information - Please Reload and Try Again';
      send(response, 200, faultOptions.warningShape === 'success' ? { result: 'success', warning } : { warning }, responsetype);
      return;
    }
    let body: Answer;
    try {
      body = handler(params);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      body = { result: 'error', message: error.message };
    }
    send(response, 200, body, responsetype);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/html' }).end(`<html><body>${String(error)}</body></html>`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const dropConnections = () => {
    for (const timer of timers) clearTimeout(timer);
    for (const socket of sockets) socket.destroy();
  };

  return {
    url: `http://127.0.0.1:${port}/includes/api.php`,
    port, identifier, secret, calls,
    callsOf: (action) => calls.filter((call) => call.action.toLowerCase() === action.toLowerCase()),
    fault(mode, faultOptions = {}) {
      fault = { mode, options: faultOptions, left: faultOptions.times ?? Infinity };
    },
    failModuleCreate(message, times = 1) {
      moduleCreateFailure = { message, left: times };
    },
    suspend: () => new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      dropConnections();
      server.close(() => resolve());
    }),
    resume: () => new Promise<void>((resolve, reject) => {
      if (server.listening) return resolve();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    }),
    state,
    close: () => new Promise<void>((resolve) => {
      dropConnections();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    }),
  };
}
