import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { configOptions, currencies, gatewayNames, products, promotions } from '../db/schema';
import type { Catalogue } from './load';

/** What applying a catalogue changed, by table; all zeros when the store already matched the file. */
export interface CatalogueChanges {
  added: number;
  changed: number;
  /** Products and promotions no longer in the file (kept for the history of orders). */
  retired: number;
  /** Options, currencies and gateway names no longer in the file. */
  removed: number;
}

/** Serialises concurrent starts of several instances on one PostgreSQL (any 64-bit constant of our own). */
const CATALOGUE_LOCK = 0x7476_6361_7461;

/** JSON with sorted keys, so a jsonb read back (keys reordered) compares equal to what the file says. */
const canonical = (value: unknown): string => JSON.stringify(value, (_key, inner: unknown) => (
  inner && typeof inner === 'object' && !Array.isArray(inner)
    ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
    : inner));

/** The fields of `wanted` whose value differs from the stored row; empty when the row already matches. */
function differences<T extends Record<string, unknown>>(stored: Record<string, unknown>, wanted: T): Partial<T> {
  return Object.fromEntries(Object.entries(wanted).filter(([key, value]) => canonical(stored[key]) !== canonical(value))) as Partial<T>;
}

/**
 * Makes the store's catalogue what the file says, in one transaction, writing only what differs: upserts by
 * key (pid, option id, currency code, promotion code in any letter case, gateway module). A product or
 * promotion left out of the file is retired, never deleted, so orders keep their history; a promotion's
 * `uses` is the store's and only set when the promotion is new.
 */
export async function applyCatalogue(db: Database, catalogue: Catalogue): Promise<CatalogueChanges> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CATALOGUE_LOCK})`);
    const changes: CatalogueChanges = { added: 0, changed: 0, retired: 0, removed: 0 };

    // Currencies: one default at a time (a unique index), so a currency stops being the default before another becomes it.
    const storedCurrencies = await tx.select().from(currencies);
    const wantedCodes = new Set(catalogue.currencies.map((currency) => currency.code));
    const dropped = storedCurrencies.filter((row) => !wantedCodes.has(row.code)).map((row) => row.code);
    if (dropped.length) {
      await tx.delete(currencies).where(inArray(currencies.code, dropped));
      changes.removed += dropped.length;
    }
    const currencyUpdates = catalogue.currencies.flatMap((currency) => {
      const row = storedCurrencies.find((stored) => stored.code === currency.code);
      const patch = row ? differences(row, { rate: currency.rate, isDefault: currency.isDefault }) : null;
      return row && patch && Object.keys(patch).length ? [{ code: currency.code, patch, losesDefault: row.isDefault && !currency.isDefault }] : [];
    }).sort((a, b) => Number(b.losesDefault) - Number(a.losesDefault));
    for (const { code, patch } of currencyUpdates) await tx.update(currencies).set(patch).where(eq(currencies.code, code));
    changes.changed += currencyUpdates.length;
    const newCurrencies = catalogue.currencies.filter((currency) => !storedCurrencies.some((row) => row.code === currency.code));
    if (newCurrencies.length) await tx.insert(currencies).values(newCurrencies);
    changes.added += newCurrencies.length;

    // Options by id; one left out of the file is deleted (no order refers to an option row).
    const storedOptions = await tx.select().from(configOptions);
    for (const option of catalogue.options) {
      const row = storedOptions.find((stored) => stored.id === option.id);
      if (!row) {
        await tx.insert(configOptions).values(option);
        changes.added += 1;
        continue;
      }
      const patch = differences(row, { name: option.name, pricing: option.pricing });
      if (Object.keys(patch).length) {
        await tx.update(configOptions).set(patch).where(eq(configOptions.id, option.id));
        changes.changed += 1;
      }
    }
    const goneOptions = storedOptions.filter((row) => !catalogue.options.some((option) => option.id === row.id)).map((row) => row.id);
    if (goneOptions.length) {
      await tx.delete(configOptions).where(inArray(configOptions.id, goneOptions));
      changes.removed += goneOptions.length;
    }

    // Products by pid; one left out is retired (its services and orders still point at it).
    const storedProducts = await tx.select().from(products);
    for (const product of catalogue.products) {
      const row = storedProducts.find((stored) => stored.pid === product.pid);
      if (!row) {
        await tx.insert(products).values({ ...product, retired: false });
        changes.added += 1;
        continue;
      }
      const { pid: _pid, ...fields } = product;
      const patch = differences(row, { ...fields, retired: false });
      if (Object.keys(patch).length) {
        await tx.update(products).set(patch).where(eq(products.pid, product.pid));
        changes.changed += 1;
      }
    }
    const retiredPids = storedProducts.filter((row) => !row.retired && !catalogue.products.some((product) => product.pid === row.pid)).map((row) => row.pid);
    if (retiredPids.length) {
      await tx.update(products).set({ retired: true }).where(inArray(products.pid, retiredPids));
      changes.retired += retiredPids.length;
    }

    // Promotions by code in any letter case; `uses` is the store's count and only set on insert.
    const storedPromotions = await tx.select().from(promotions);
    for (const { initialUses, ...promotion } of catalogue.promotions) {
      const row = storedPromotions.find((stored) => stored.code.toLowerCase() === promotion.code.toLowerCase());
      if (!row) {
        await tx.insert(promotions).values({ ...promotion, uses: initialUses, retired: false });
        changes.added += 1;
        continue;
      }
      const patch = differences(row, { ...promotion, retired: false });
      if (Object.keys(patch).length) {
        await tx.update(promotions).set(patch).where(eq(promotions.id, row.id));
        changes.changed += 1;
      }
    }
    const retiredPromotions = storedPromotions
      .filter((row) => !row.retired && !catalogue.promotions.some((promotion) => promotion.code.toLowerCase() === row.code.toLowerCase()))
      .map((row) => row.id);
    if (retiredPromotions.length) {
      await tx.update(promotions).set({ retired: true }).where(inArray(promotions.id, retiredPromotions));
      changes.retired += retiredPromotions.length;
    }

    // Gateway display names by module; a module left out shows its adapter's own name again.
    const storedNames = await tx.select().from(gatewayNames);
    for (const gateway of catalogue.gateways) {
      const row = storedNames.find((stored) => stored.module === gateway.module);
      if (!row) {
        await tx.insert(gatewayNames).values(gateway);
        changes.added += 1;
      } else if (row.displayname !== gateway.displayname) {
        await tx.update(gatewayNames).set({ displayname: gateway.displayname }).where(eq(gatewayNames.module, gateway.module));
        changes.changed += 1;
      }
    }
    const goneNames = storedNames.filter((row) => !catalogue.gateways.some((gateway) => gateway.module === row.module)).map((row) => row.module);
    if (goneNames.length) {
      await tx.delete(gatewayNames).where(inArray(gatewayNames.module, goneNames));
      changes.removed += goneNames.length;
    }
    return changes;
  });
}
