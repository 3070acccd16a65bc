import { and, asc, eq, sql } from 'drizzle-orm';
import { isCurrency, type CurrencyRate } from '../../../domain/currency';
import { configOptions, currencies, gatewayNames, products, promotions } from '../../db/schema';
import type { BillingPort, CatalogueProduct } from '../port';
import { cachedRead } from '../shared/cached-read';
import type { LocalBillingContext } from './context';

type CatalogueCalls = Pick<BillingPort, 'products' | 'product' | 'promotion' | 'currencies' | 'gatewayNames'>;

/** Products, options, promotions, currency rates and gateway names, as the catalogue file put them in the store. */
export function localCatalogue(context: LocalBillingContext): CatalogueCalls {
  const { db } = context;

  const toProduct = (row: typeof products.$inferSelect, optionRows: (typeof configOptions.$inferSelect)[]): CatalogueProduct => ({
    pid: row.pid,
    name: row.name,
    description: row.description,
    group: row.group,
    paytype: row.paytype,
    billingcycle: row.billingcycle,
    pricing: row.pricing,
    configoptions: row.configOptionIds
      .map((id) => optionRows.find((option) => option.id === id))
      .filter((option) => option !== undefined)
      .map((option) => ({ id: option.id, name: option.name, pricing: option.pricing })),
    customFields: { username: row.usernameFieldId, password: row.passwordFieldId },
  });

  const readCatalogue = async () => {
    const [rows, optionRows] = await Promise.all([
      // A retired product (left out of the catalogue file) is neither listed nor sold; service() still names it.
      db.select().from(products).where(eq(products.retired, false)).orderBy(asc(products.group), asc(products.sortOrder), asc(products.pid)),
      db.select().from(configOptions),
    ]);
    return rows.map((row) => toProduct(row, optionRows));
  };

  const readCurrencies = async (): Promise<CurrencyRate[]> => {
    const rows = await db.select().from(currencies).orderBy(asc(currencies.code));
    return rows.filter((row) => isCurrency(row.code)).map((row) => ({ code: row.code, rate: row.rate, isDefault: row.isDefault }));
  };

  const cachedCatalogue = cachedRead(context, readCatalogue);

  return {
    products: async (group) => (await cachedCatalogue()).filter((product) => product.group === group),

    product: async (pid) => (await cachedCatalogue()).find((product) => product.pid === pid) ?? null,

    async promotion(code) {
      // A retired promotion (left out of the catalogue file) is no longer accepted; its row keeps its uses.
      const [row] = await db.select().from(promotions).where(and(sql`lower(${promotions.code}) = lower(${code})`, eq(promotions.retired, false)));
      if (!row) return null;
      return { code: row.code, type: row.type, value: row.value, appliesto: row.appliesto, startdate: row.startdate, expirationdate: row.expirationdate, maxuses: row.maxuses, uses: row.uses };
    },

    currencies: cachedRead(context, readCurrencies),

    gatewayNames: cachedRead(context, async () => Object.fromEntries((await db.select().from(gatewayNames)).map((row) => [row.module, row.displayname]))),
  };
}
