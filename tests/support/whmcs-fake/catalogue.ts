/** The catalogue: products with their pricing, custom fields and configurable options, currencies, payment methods. */
import type { ProductRow } from './seed';
import type { FakeStore } from './store';
import { tokens, type Actions } from './values';

export function catalogueActions(store: FakeStore): Actions {
  const { state } = store;
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

  return {
    getproducts(params) {
      const pids = params.pid ? tokens(params.pid) : null;
      const products = state.products.filter((product) =>
        (!pids || pids.includes(String(product.pid))) && (!params.gid || String(product.gid) === params.gid.trim()) && (!params.module || product.module === params.module));
      return { result: 'success', totalresults: products.length, ...(products.length ? { products: { product: products.map(productAnswer) } } : {}) };
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
  };
}
