/**
 * The order a shopper drafts on the checkout: the plan, its add-ons, a promotion and the reminder,
 * priced and written as POST /api/order's body. The add-ons travel as the contract's configoptions,
 * keyed by option id; the checkout writes them and the server reads them back, both through here.
 */
import { EXTRA_CONNECTION_OPTION_ID, PROXY_PROTECTION_OPTION_ID } from './constants';
import type { Currency } from './currency';
import { quoteOrder, type OrderQuote, type PricedOption, type PricedProduct } from './pricing';
import type { Promotion } from './promotion';

/** The add-ons chosen with a plan. */
export interface AddOns {
  extraConnection: boolean;
  proxyProtection: boolean;
}

/** A product with the configurable options it offers. */
export type OptionedProduct = PricedProduct & { configoptions: PricedOption[] };

const EXTRA_CONNECTION_KEY = `${EXTRA_CONNECTION_OPTION_ID}` as const;
const PROXY_PROTECTION_KEY = `${PROXY_PROTECTION_OPTION_ID}` as const;

/** The add-ons as the contract carries them (ConfigOptionChoices): by option id, 1 = chosen, 0 = offered and not chosen. */
export type ConfigOptionChoices = Partial<Record<typeof EXTRA_CONNECTION_KEY | typeof PROXY_PROTECTION_KEY, 0 | 1>>;

/** A product as far as its options go: which option ids it offers. */
type OfferedOptions<Option extends { id: number }> = { configoptions: readonly Option[] };

const optionOf = <Option extends { id: number }>(product: OfferedOptions<Option>, id: number) => product.configoptions.find((option) => option.id === id) ?? null;

/** The product's option for each chosen add-on; null when it is not chosen or the product does not offer it. */
export function addOnOptions(product: OptionedProduct, addOns: AddOns): { extraConnection: PricedOption | null; proxyProtection: PricedOption | null } {
  return {
    extraConnection: addOns.extraConnection ? optionOf(product, EXTRA_CONNECTION_OPTION_ID) : null,
    proxyProtection: addOns.proxyProtection ? optionOf(product, PROXY_PROTECTION_OPTION_ID) : null,
  };
}

/** The add-ons as configoptions: every option the product offers, 1 when chosen; an option it does not offer is left out. */
export function configOptionsOf(product: OfferedOptions<{ id: number }>, addOns: AddOns): ConfigOptionChoices {
  const choices: ConfigOptionChoices = {};
  if (optionOf(product, EXTRA_CONNECTION_OPTION_ID)) choices[EXTRA_CONNECTION_KEY] = addOns.extraConnection ? 1 : 0;
  if (optionOf(product, PROXY_PROTECTION_OPTION_ID)) choices[PROXY_PROTECTION_KEY] = addOns.proxyProtection ? 1 : 0;
  return choices;
}

/** The add-ons an order's configoptions chose (none when absent). */
export function addOnsOf(choices: ConfigOptionChoices | undefined): AddOns {
  return { extraConnection: choices?.[EXTRA_CONNECTION_KEY] === 1, proxyProtection: choices?.[PROXY_PROTECTION_KEY] === 1 };
}

/** What is ordered: a product, its add-ons, a promotion, and whether to be reminded of an unpaid order. */
export interface OrderChoice<Product extends OptionedProduct = OptionedProduct> extends AddOns {
  product: Product;
  promotion: Promotion | null;
  /** "Remind me if I don't finish": one reminder mail if the order is still unpaid after a while. */
  remind: boolean;
}

/** The total of a choice in a currency (quoteOrder), or null when the product is not priced in it. */
export function quoteChoice(choice: Omit<OrderChoice, 'remind'>, currency: Currency): OrderQuote | null {
  return quoteOrder({ product: choice.product, currency, ...addOnOptions(choice.product, choice), promotion: choice.promotion });
}

/** POST /api/order's body for one plan, without its Idempotency-Key (the contract's OrderRequest). */
export interface OrderDraft {
  pid: number;
  /** The gateway's module. */
  paymentmethod: string;
  promocode?: string;
  affid?: string;
  /** The total the shopper saw; the server refuses another one (409 price_changed). */
  amount: number;
  currency: Currency;
  configoptions?: ConfigOptionChoices;
  remind?: boolean;
}

/** Where the order is paid and who brought the shopper: the rest of the draft beside the choice. */
export interface OrderTerms {
  currency: Currency;
  gateway: string | null;
  affId: string | null;
}

/** The one order draft of a choice, from the form or the automatic order alike. */
export function orderDraftOf(choice: OrderChoice, terms: OrderTerms): OrderDraft {
  return {
    pid: choice.product.pid,
    paymentmethod: terms.gateway ?? '',
    ...(choice.promotion ? { promocode: choice.promotion.code } : {}),
    ...(terms.affId ? { affid: terms.affId } : {}),
    amount: quoteChoice(choice, terms.currency)?.total ?? 0,
    currency: terms.currency,
    configoptions: configOptionsOf(choice.product, choice),
    remind: choice.remind,
  };
}
