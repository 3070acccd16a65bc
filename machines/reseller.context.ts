/** What the reseller flow starts from, remembers and sends: its types, its first context and the order it prices. */
import type { UserId } from '../src/domain/user-id';
import type { Currency } from '../src/domain/currency';
import type { MessageKey } from '../src/domain/messages';
import { quoteProducts } from '../src/domain/pricing';
import type { Gateway, OrderRequest, OrderResponse, Product, ResellerAuthRequest, ResellerAuthResponse, ResellerProductList, ResellerService as ContractResellerService } from '../src/api/client';

/** A reseller product (getResellersProducts): what the pack list shows and prices. */
export type ResellerProduct = Pick<Product, 'pid' | 'name' | 'billingcycle' | 'pricing'>;

/** A payment gateway as the gateway list gives it. */
export type ResellerGateway = Pick<Gateway, 'module' | 'displayname' | 'type'>;

/** What the reseller page starts from. */
export interface ResellerInput {
  /** The visitor's currency. */
  currency: Currency;
  gateways: ResellerGateway[];
  /** Module of the default gateway. */
  selectedGateway: string;
  /** Pre-fills the e-mail (a logged-in user's address). */
  email?: string;
  /** The product a new reseller's order adds to the chosen one (the app's newReselPid); null adds none. */
  newResellerPid: number | null;
}

/** The order as the waiting step needs it. */
export interface ResellerOrder {
  orderid: number | null;
  invoiceid: number | null;
  serviceid: number | null;
  fraud: boolean;
}

/** The reseller service the success page is about (getResellerProducts). */
export type ResellerService = ContractResellerService;

/** What the reseller pages show and the machine remembers. */
export interface ResellerContext {
  currency: Currency;
  products: ResellerProduct[];
  selectedPid: number | null;
  /** The yes/no choice: already a reseller (sign in) or new (sign up with a confirmed password). */
  existingReseller: boolean;
  email: string;
  password: string;
  confirmPassword: string;
  emailError: MessageKey | null;
  passwordError: MessageKey | null;
  /** A new reseller's password breaking the rule (10 characters or more, not the e-mail); the server applies the same. */
  passwordRuleError: MessageKey | null;
  gateways: ResellerGateway[];
  selectedGateway: string;
  newResellerPid: number | null;
  /** Amount of the order in the visitor's currency; null when a product is not sold in it. */
  price: number | null;
  /** Set once resellerAuth succeeded; a retried order does not sign in again. */
  /** A signed-in reseller's id, or a sign-up's opaque handle. */
  userid: UserId | null;
  order: ResellerOrder;
  paymentLink: string | null;
  /** Payment deadline, epoch milliseconds. */
  lastDate: number | null;
  duration: number | null;
  /** Server message (or message key) of the last failed call. */
  error: string | null;
  /** The service the reseller success page checks. */
  serviceid: number | null;
  resellerService: ResellerService | null;
}

/** What the reseller success route knows when it opens. */
export interface ResellerSuccessQuery {
  serviceid: number | null;
  loggedIn: boolean;
}

/** What the visitor does on the reseller pages. */
export type ResellerEvent =
  | { type: 'products.load' }
  | { type: 'products.retry' }
  | ({ type: 'success.check' } & ResellerSuccessQuery)
  | { type: 'plan.select'; pid: number }
  | { type: 'reseller.choose'; existing: boolean }
  | { type: 'email.change'; email: string }
  | { type: 'password.change'; password: string }
  | { type: 'confirmation.change'; password: string }
  | { type: 'gateway.select'; gateway: string }
  | { type: 'order.submit' };

/** getResellersProducts: the packs (newResellerPid reaches the machine as input). */
export type ResellerProductsOutput = Pick<ResellerProductList, 'totalresults'> & { products: ResellerProduct[] };

/** resellerAuth's body. */
export type ResellerAuthInput = ResellerAuthRequest;

/** resellerAuth's answer. */
export type ResellerAuthOutput = ResellerAuthResponse;

/** The reseller order body: a list of product ids. */
export type CreateResellerOrderInput = Pick<OrderRequest, 'paymentmethod' | 'amount' | 'currency'> & { pid: Extract<OrderRequest['pid'], number[]> };

/** The order's answer, with the link and its deadline (date-time). */
export type CreateResellerOrderOutput = OrderResponse;

/** The service of the reseller success page. */
export interface LoadResellerProductInput {
  serviceid: number | null;
}

/** What the reseller waiting step starts from. */
export interface ResellerOutput {
  order: ResellerOrder;
  paymentLink: string | null;
  lastDate: number | null;
  duration: number | null;
  selectedGateway: string;
}

/** The pid list of the order; a new reseller's also holds the new-reseller product, as its second entry. */
export function orderPids(context: Pick<ResellerContext, 'selectedPid' | 'existingReseller' | 'newResellerPid'>): number[] {
  const chosen = context.selectedPid;
  if (chosen === null) return [];
  const extra = context.existingReseller ? null : context.newResellerPid;
  return extra !== null && extra !== chosen ? [chosen, extra] : [chosen];
}

/** The order amount; null when a product of the order is not loaded or not sold in the currency. */
export function resellerPrice(context: Pick<ResellerContext, 'products' | 'selectedPid' | 'existingReseller' | 'newResellerPid' | 'currency'>): number | null {
  const products = orderPids(context).map((pid) => context.products.find((product) => product.pid === pid));
  if (products.length === 0 || products.some((product) => product === undefined)) return null;
  return quoteProducts(products as ResellerProduct[], context.currency);
}

/** The product selected by default: the second, or the first when there is only one. */
export function defaultResellerPid(products: ResellerProduct[]): number | null {
  return (products[1] ?? products[0])?.pid ?? null;
}

/** The context a reseller page opens with: nothing chosen, signed in or ordered yet. */
export function initialResellerContext(input: ResellerInput): ResellerContext {
  return {
    currency: input.currency,
    products: [],
    selectedPid: null,
    existingReseller: false,
    email: input.email ?? '',
    password: '',
    confirmPassword: '',
    emailError: null,
    passwordError: null,
    passwordRuleError: null,
    gateways: input.gateways,
    selectedGateway: input.selectedGateway,
    newResellerPid: input.newResellerPid,
    price: null,
    userid: null,
    order: { orderid: null, invoiceid: null, serviceid: null, fraud: false },
    paymentLink: null,
    lastDate: null,
    duration: null,
    error: null,
    serviceid: null,
    resellerService: null,
  };
}
