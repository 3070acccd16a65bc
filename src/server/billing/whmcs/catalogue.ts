import { EXTRA_CONNECTION_OPTION_ID, MAX_CHECKOUT_PRODUCTS, PROXY_PROTECTION_OPTION_ID } from '../../../domain/constants';
import { isCurrency, type Currency, type CurrencyRate } from '../../../domain/currency';
import type { PricingKey } from '../../../domain/billing-cycle';
import type { PricingTable } from '../../../domain/pricing';
import type { StoredPromotion } from '../../../domain/promotion';
import { products } from '../../db/schema';
import type { BillingPort, CatalogueProduct } from '../port';
import { cachedRead } from '../shared/cached-read';
import type { Executor } from '../shared/store';
import { collection, text, toCentsExact, toId, whmcsDate } from './client';
import { PASSWORD_FIELD, USERNAME_FIELD, type WhmcsBillingContext } from './context';

type CatalogueCalls = Pick<BillingPort, 'products' | 'product' | 'promotion' | 'currencies' | 'gatewayNames'>;

/** WHMCS's cycle names (promotions, services) by pricing key. */
const CYCLES: { key: PricingKey; name: string }[] = [
  { key: 'monthly', name: 'Monthly' }, { key: 'quarterly', name: 'Quarterly' }, { key: 'semiannually', name: 'Semi-Annually' },
  { key: 'annually', name: 'Annually' }, { key: 'biennially', name: 'Biennially' }, { key: 'triennially', name: 'Triennially' },
];

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

/** WHMCS's products of the two groups, its promotions, currencies and payment methods, each read through a cache. */
export function whmcsCatalogue(context: WhmcsBillingContext) {
  const { whmcs, config, clock } = context;

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

  const calls: CatalogueCalls = {
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
  };

  return {
    calls,
    product,
    mirrorProducts,
    /** WHMCS's currency id of a code (AddClient's `currency`). */
    currencyId: async (code: Currency) => {
      await cachedCurrencies();
      return currencyIdOf.get(code);
    },
    /** The sub-option of a configurable option (UpdateClientProduct names it with a quantity). */
    subOption: async (optionId: number) => {
      await cachedCatalogue();
      return subOptionOf.get(optionId);
    },
  };
}

export type WhmcsCatalogue = ReturnType<typeof whmcsCatalogue>;
