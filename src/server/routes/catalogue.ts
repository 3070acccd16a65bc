import type { components } from '../../api/schema';
import type { Currency } from '../../domain/currency';
import type { PricingTable } from '../../domain/pricing';
import { pricedPromotion } from '../billing/promotions';
import { HttpError, notFound } from '../http-error';
import type { CatalogueProduct } from '../billing/port';
import { translatedProduct } from '../merchant';
import type { Handlers, RouteDeps } from './types';

const CYCLE_KEYS = ['monthly', 'quarterly', 'semiannually', 'annually', 'biennially', 'triennially'] as const;
const NOT_SOLD = -1;

/** A pricing table with every currency and cycle present; what is missing is not sold (-1). */
export function completePricing(table: PricingTable): components['schemas']['PricingTable'] {
  const currency = (code: Currency) => Object.fromEntries(CYCLE_KEYS.map((key) => [key, table[code]?.[key] ?? NOT_SOLD])) as components['schemas']['CyclePrices'];
  return { EUR: currency('EUR'), GBP: currency('GBP') };
}

/** The product as the contract shows it (custom field ids are served by their own call). */
export function productView({ customFields: _customFields, ...product }: CatalogueProduct): components['schemas']['Product'] {
  return {
    ...product,
    billingcycle: product.billingcycle as components['schemas']['BillingCycle'],
    pricing: completePricing(product.pricing),
    configoptions: product.configoptions.map((option) => ({ ...option, pricing: completePricing(option.pricing) })),
  };
}

/** Catalogue reads: products, one product, its custom fields, and promotion lookups. */
export function catalogueRoutes({ billing, config, shop }: RouteDeps): Handlers<'getProducts' | 'getProduct' | 'getResellersProducts' | 'getProductCustomFields' | 'getPromotion'> {
  const productOr404 = async (pid: string) => {
    const product = await billing.product(Number(pid));
    if (!product) throw notFound('This product does not exist.');
    return product;
  };
  // The plan's badge from the catalogue file; a plan it does not mark has none.
  const shown = (product: components['schemas']['Product']) => {
    const badge = shop.showcase.badges.get(product.pid);
    return badge ? { ...product, badge } : product;
  };
  return {
    async getProducts(request) {
      const products = (await billing.products('retail')).map((product) => shown(translatedProduct(productView(product), request.query.locale, shop.translations)));
      return { totalresults: products.length, products };
    },

    async getProduct(request) {
      return shown(translatedProduct(productView(await productOr404(request.query.pid)), request.query.locale, shop.translations));
    },

    async getResellersProducts(request) {
      const products = (await billing.products('reseller')).map((product) => translatedProduct(productView(product), request.query.locale, shop.translations));
      const newResellerPid = products.some((product) => product.pid === config.resellerActivationPid) ? config.resellerActivationPid : null;
      return { totalresults: products.length, products, newResellerPid };
    },

    async getProductCustomFields(request) {
      return (await productOr404(request.query.id)).customFields;
    },

    async getPromotion(request) {
      const promotion = await billing.promotion(request.query.code);
      // A code the billing does not know is refused like any other unusable code (422), not a missing resource (404).
      if (!promotion) throw new HttpError(422, 'promotion_not_found', 'Promotion code not found.');
      // A Fixed Amount comes with its amount in every currency, converted here as the order route does,
      // so the total the checkout shows is the one the order is checked against.
      const priced = await pricedPromotion(billing, promotion);
      return { result: 'success' as const, totalresults: 1, promotions: { promotion: [{ ...priced, maxuses: priced.maxuses ?? 0, uses: priced.uses ?? 0 }] } };
    },
  };
}
