/**
 * The fake WHMCS's tables, and the demo catalogue (src/server/catalogue/demo.yaml) as WHMCS would hold it:
 * two product groups, money as strings with "-1.00" for a disabled cycle, configurable options 2 and 4 with
 * their sub-options, Username/Password custom fields per product, raw promotion rows, a WHMCS 8 user per client.
 */
import { DEMO_CATALOGUE_FILE, loadCatalogueFile, type Catalogue } from '../../../src/server/catalogue/load';
import { addMonths, CYCLE_MONTHS } from './values';

export const CYCLE_KEYS = ['monthly', 'quarterly', 'semiannually', 'annually', 'biennially', 'triennially'] as const;
export type CycleKey = (typeof CYCLE_KEYS)[number];
const SETUP_KEYS = ['msetupfee', 'qsetupfee', 'ssetupfee', 'asetupfee', 'bsetupfee', 'tsetupfee'] as const;
/** One currency's prices: every cycle and setup fee as a money string, "-1.00" = cycle disabled. */
export type PriceRow = Record<CycleKey | (typeof SETUP_KEYS)[number], string>;

export interface CurrencyRow { id: number; code: string; prefix: string; suffix: string; format: number; rate: string; isDefault: boolean }
export interface ProductGroupRow { gid: number; name: string }
export interface CustomFieldRow { id: number; name: string; description: string; required: boolean; showOnOrderForm: boolean }
export interface ProductRow {
  pid: number; gid: number; type: string; name: string; slug: string; description: string; module: string;
  paytype: 'free' | 'onetime' | 'recurring'; pricing: Record<string, PriceRow>; customfields: CustomFieldRow[]; configoptionIds: number[];
}
/** type: "1" dropdown, "2" radio, "3" yes/no, "4" quantity. */
export interface ConfigOptionRow {
  id: number; name: string; type: '1' | '2' | '3' | '4'; minqty: number; maxqty: number;
  options: { id: number; name: string; pricing: Record<string, PriceRow> }[];
}
/** tblpromotions, as GetPromotions returns it. */
export interface PromotionRow {
  id: number; code: string; type: string; recurring: number; value: string; cycles: string; appliesto: string; requires: string;
  requiresexisting: number; startdate: string; expirationdate: string; maxuses: number; uses: number; lifetimepromo: number;
  applyonce: number; newsignups: number; existingclient: number; onceperclient: number; recurfor: number; upgrades: number;
  upgradeconfig: string; notes: string;
}
export interface PaymentMethodRow { module: string; displayname: string }
export interface ClientGroupRow { id: number; groupname: string }
export interface UserRow { id: number; firstname: string; lastname: string; email: string; password: string; clientIds: number[] }
export interface ClientRow {
  id: number; uuid: string; ownerUserId: number; firstname: string; lastname: string; companyname: string; email: string;
  address1: string; city: string; state: string; postcode: string; country: string; phonenumber: string;
  currency: number; groupid: number; status: 'Active' | 'Inactive' | 'Closed'; datecreated: string; notes: string;
}
export interface OrderRow {
  id: number; ordernum: number; userid: number; date: string; status: 'Pending' | 'Active' | 'Cancelled' | 'Fraud';
  promocode: string; promotype: string; promovalue: string; amount: string; paymentmethod: string; invoiceid: number;
  ipaddress: string; affid: number; serviceIds: number[];
}
export interface InvoiceItemRow { id: number; type: string; relid: number; description: string; amount: string; taxed: number }
export interface InvoiceRow {
  id: number; userid: number; date: string; duedate: string; datepaid: string; status: 'Unpaid' | 'Paid' | 'Cancelled' | 'Refunded' | 'Draft';
  paymentmethod: string; currencyCode: string; items: InvoiceItemRow[]; notes: string;
}
export interface TransactionRow {
  id: number; userid: number; currency: number; gateway: string; date: string; description: string;
  amountin: string; fees: string; transid: string; invoiceid: number;
}
export interface ServiceRow {
  id: number; clientid: number; orderid: number; pid: number; regdate: string; domain: string; serverhostname: string; serverip: string;
  firstpaymentamount: string; recurringamount: string; billingcycle: string; nextduedate: string; paymentmethod: string;
  status: 'Pending' | 'Active' | 'Suspended' | 'Terminated' | 'Cancelled' | 'Fraud' | 'Completed';
  /** Why it is suspended: the cron writes "Overdue on Payment", the only reason a payment lifts. */
  suspensionreason: string;
  username: string; password: string; notes: string; promoid: number;
  /** field id → value */
  customfields: Record<number, string>;
  /** config option id → selected sub-option and quantity */
  configoptions: Record<number, { optionid: number; qty: number }>;
}

export interface WhmcsSeed {
  currencies: CurrencyRow[];
  productGroups: ProductGroupRow[];
  products: ProductRow[];
  configOptions: ConfigOptionRow[];
  promotions: PromotionRow[];
  paymentMethods: PaymentMethodRow[];
  clientGroups: ClientGroupRow[];
  users: UserRow[];
  clients: ClientRow[];
  orders: OrderRow[];
  invoices: InvoiceRow[];
  transactions: TransactionRow[];
  services: ServiceRow[];
  /** What the demo needs to point the checkout at this seed. */
  demo: { retailGid: number; resellerGid: number; resellerClientGroup: number };
}

export const DEMO_RETAIL_GID = 1;
export const DEMO_RESELLER_GID = 2;
export const DEMO_RESELLER_CLIENT_GROUP = 1;
/** The sub-option (tblproductconfigoptionssub id) of each configurable option: distinct from the option ids on purpose. */
export const DEMO_SUB_OPTION = { 2: 5, 4: 9 } as const;
/** An admin-only custom field (not on the order form) where the MAC address of a retail service is kept. */
export const DEMO_MAC_FIELD_ID = 13;
/** The demo accounts, as the local demo seeds them (src/server/db/seed.ts, README "Demo data"). */
export const DEMO_CLIENT = { email: 'demo@tvcheckout.test', password: 'demo-password-1', clientId: 1, userId: 501 } as const;
export const DEMO_RESELLER = { email: 'reseller@tvcheckout.test', password: 'reseller-password-1', clientId: 2, userId: 502 } as const;
export const DEMO_SERVER_HOSTNAME = 'tv.example.test';

const money = (value: number) => value.toFixed(2);
const CURRENCY_SYMBOLS: Record<string, string> = { EUR: '€', GBP: '£', USD: '$' };

function priceRow(prices: Record<string, number> | undefined): PriceRow {
  const row = {} as PriceRow;
  for (const key of SETUP_KEYS) row[key] = '0.00';
  for (const key of CYCLE_KEYS) row[key] = money(prices?.[key] ?? -1);
  return row;
}

const WHMCS_PROMO_CYCLES: Record<string, string> = { HALFYEAR20: 'Semi-Annually' };

/** The demo catalogue as WHMCS would hold it, with the two demo accounts and their active services. */
export function demoSeed(catalogue: Catalogue = loadCatalogueFile(DEMO_CATALOGUE_FILE)): WhmcsSeed {
  const currencies: CurrencyRow[] = catalogue.currencies.map((currency, index) => ({
    id: index + 1, code: currency.code, prefix: CURRENCY_SYMBOLS[currency.code] ?? '', suffix: ` ${currency.code}`, format: 2,
    rate: currency.rate.toFixed(5), isDefault: currency.isDefault,
  }));
  const pricingOf = (table: Catalogue['products'][number]['pricing']) =>
    Object.fromEntries(currencies.map((currency) => [currency.code, priceRow(table[currency.code as keyof typeof table])]));
  const configOptions: ConfigOptionRow[] = catalogue.options.map((option) => ({
    id: option.id, name: option.name,
    // The extra connection is bought by the number (upsells add more); proxy protection is on or off.
    type: option.id === 2 ? '4' : '3', minqty: 0, maxqty: option.id === 2 ? 10 : 1,
    options: [{ id: DEMO_SUB_OPTION[option.id as 2 | 4] ?? option.id * 10 + 1, name: option.name, pricing: pricingOf(option.pricing) }],
  }));
  const products: ProductRow[] = catalogue.products.map((product) => ({
    pid: product.pid, gid: product.group === 'retail' ? DEMO_RETAIL_GID : DEMO_RESELLER_GID, type: 'other', name: product.name,
    slug: product.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), description: product.description, module: 'iptvpanel',
    paytype: product.paytype, pricing: pricingOf(product.pricing), configoptionIds: product.configOptionIds,
    customfields: [
      { id: product.usernameFieldId, name: 'Username', description: '', required: false, showOnOrderForm: true },
      { id: product.passwordFieldId, name: 'Password', description: '', required: false, showOnOrderForm: true },
      ...(product.group === 'retail' ? [{ id: DEMO_MAC_FIELD_ID, name: 'MAC Address', description: 'Set from the checkout', required: false, showOnOrderForm: false }] : []),
    ],
  }));
  const promotions: PromotionRow[] = catalogue.promotions.map((promotion, index) => ({
    id: index + 1, code: promotion.code, type: promotion.type, recurring: promotion.recurring ? 1 : 0, value: money(promotion.value),
    cycles: WHMCS_PROMO_CYCLES[promotion.code] ?? '', appliesto: promotion.appliesto, requires: '', requiresexisting: 0,
    startdate: promotion.startdate, expirationdate: promotion.expirationdate, maxuses: promotion.maxuses, uses: promotion.initialUses,
    lifetimepromo: 0, applyonce: 0, newsignups: 0, existingclient: 0, onceperclient: 0, recurfor: 0, upgrades: 0,
    upgradeconfig: 'a:4:{s:5:"value";s:4:"0.00";s:4:"type";s:0:"";s:12:"discounttype";s:10:"Percentage";s:13:"configoptions";s:0:"";}',
    notes: '',
  }));
  // Listed before the sandbox gateways and absent from GATEWAYS: the adapter must filter and order.
  const paymentMethods: PaymentMethodRow[] = [
    { module: 'banktransfer', displayname: 'Bank Transfer' },
    ...['sandboxcrypto', 'sandbox'].map((module) => ({ module, displayname: catalogue.gateways.find((gateway) => gateway.module === module)?.displayname ?? module })),
    // The real providers' modules, active as in an installation that takes Coinbase and a hosted card page.
    { module: 'coinbase', displayname: 'Crypto (Coinbase)' },
    { module: 'hostedlink', displayname: 'Card (hosted)' },
  ];

  const defaultCurrency = currencies.find((currency) => currency.isDefault)?.id ?? 1;
  const today = new Date().toISOString().slice(0, 10);
  const account = (who: typeof DEMO_CLIENT | typeof DEMO_RESELLER, firstname: string, groupid: number): [UserRow, ClientRow] => [
    { id: who.userId, firstname, lastname: 'Demo', email: who.email, password: who.password, clientIds: [who.clientId] },
    {
      id: who.clientId, uuid: `00000000-0000-4000-8000-${String(who.clientId).padStart(12, '0')}`, ownerUserId: who.userId, firstname, lastname: 'Demo', companyname: '',
      email: who.email, address1: '', city: '', state: '', postcode: '', country: 'MA', phonenumber: '', currency: defaultCurrency, groupid,
      status: 'Active', datecreated: '2024-01-15', notes: '',
    },
  ];
  const [clientUser, client] = account(DEMO_CLIENT, 'Client', 0);
  const [resellerUser, reseller] = account(DEMO_RESELLER, 'Reseller', DEMO_RESELLER_CLIENT_GROUP);
  const eur = (pid: number) => products.find((product) => product.pid === pid)?.pricing.EUR?.monthly ?? '0.00';
  const seededOrder = (id: number, clientId: number, pid: number, billingcycle: string, username: string, password: string, mac: string | null): [OrderRow, InvoiceRow, ServiceRow] => {
    const amount = eur(pid);
    const product = products.find((row) => row.pid === pid);
    const [usernameField, passwordField] = product?.customfields ?? [];
    return [
      { id, ordernum: 1000000000 + id, userid: clientId, date: '2024-01-15 10:00:00', status: 'Active', promocode: '', promotype: '', promovalue: '', amount, paymentmethod: 'sandbox', invoiceid: id, ipaddress: '192.0.2.1', affid: 0, serviceIds: [id] },
      { id, userid: clientId, date: '2024-01-15', duedate: '2024-01-15', datepaid: '2024-01-15 10:05:00', status: 'Paid', paymentmethod: 'sandbox', currencyCode: 'EUR', notes: '', items: [{ id, type: 'Hosting', relid: id, description: product?.name ?? '', amount, taxed: 0 }] },
      {
        id, clientid: clientId, orderid: id, pid, regdate: '2024-01-15', domain: '', serverhostname: DEMO_SERVER_HOSTNAME, serverip: '192.0.2.10',
        firstpaymentamount: amount, recurringamount: billingcycle === 'One Time' ? '0.00' : amount, billingcycle,
        // Paid up to a cycle from today, as a service renewed on time is: its add-ons cost a whole period.
        nextduedate: CYCLE_MONTHS[billingcycle] ? addMonths(today, CYCLE_MONTHS[billingcycle]) : '0000-00-00', paymentmethod: 'sandbox', status: 'Active', suspensionreason: '', username, password, notes: '', promoid: 0,
        customfields: Object.fromEntries([
          ...(usernameField ? [[usernameField.id, username]] : []), ...(passwordField ? [[passwordField.id, password]] : []),
          ...(mac !== null ? [[DEMO_MAC_FIELD_ID, mac]] : []),
        ]) as Record<number, string>,
        configoptions: {},
      },
    ];
  };
  const [order1, invoice1, service1] = seededOrder(1, DEMO_CLIENT.clientId, 1, 'Monthly', 'TV-10000001', '100000000001', '00:1A:79:00:00:01');
  const [order2, invoice2, service2] = seededOrder(2, DEMO_RESELLER.clientId, 11, 'One Time', 'TV-20000001', '200000000001', null);
  return {
    currencies, productGroups: [{ gid: DEMO_RETAIL_GID, name: 'Streaming TV' }, { gid: DEMO_RESELLER_GID, name: 'Reseller' }],
    products, configOptions, promotions, paymentMethods,
    clientGroups: [{ id: DEMO_RESELLER_CLIENT_GROUP, groupname: 'Resellers' }],
    users: [clientUser, resellerUser], clients: [client, reseller],
    orders: [order1, order2], invoices: [invoice1, invoice2],
    transactions: [invoice1, invoice2].map((invoice) => ({
      id: invoice.id, userid: invoice.userid, currency: defaultCurrency, gateway: 'sandbox', date: invoice.datepaid, description: 'Invoice Payment',
      amountin: invoice.items[0]?.amount ?? '0.00', fees: '0.00', transid: `seed-${invoice.id}`, invoiceid: invoice.id,
    })),
    services: [service1, service2],
    demo: { retailGid: DEMO_RETAIL_GID, resellerGid: DEMO_RESELLER_GID, resellerClientGroup: DEMO_RESELLER_CLIENT_GROUP },
  };
}
