import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { components, paths } from './schema';

/** Options of the checkout client; tests pass a `fetch` of their own instead of mocking the network. */
export interface CheckoutClientOptions {
  /** Origin the `/checkout/...` paths are resolved against; '' (same origin) by default. */
  baseUrl?: string;
  /** The fetch to use; the global fetch by default. */
  fetch?: typeof fetch;
}

/** The typed client of openapi.yaml; callers branch on `{ data, error }`. */
export type CheckoutClient = Client<paths>;

/** Creates the one API client: same origin by default, sending the session cookie. */
export function createCheckoutClient(options: CheckoutClientOptions = {}): CheckoutClient {
  return createClient<paths>({
    baseUrl: options.baseUrl ?? '',
    credentials: 'same-origin',
    fetch: options.fetch,
  });
}

type Schemas = components['schemas'];

/** The error body every failing call returns. */
export type ApiError = Schemas['Error'];
/** A machine-readable error code, e.g. `price_changed`. */
export type ApiErrorCode = ApiError['error']['code'];
/** A currency the catalogue is priced in. */
export type Currency = Schemas['Currency'];
/** Prices of one currency by billing cycle (-1 = not sold). */
export type CyclePrices = Schemas['CyclePrices'];
/** Prices by currency and billing cycle. */
export type PricingTable = Schemas['PricingTable'];
/** A product's billing cycle. */
export type BillingCycle = Schemas['BillingCycle'];
/** A configurable option (2 = extra connection, 4 = proxy protection). */
export type ConfigOption = Schemas['ConfigOption'];
/** A catalogue product. */
export type Product = Schemas['Product'];
/** A list of catalogue products. */
export type ProductList = Schemas['ProductList'];
/** The reseller products, with the product a new reseller's order adds. */
export type ResellerProductList = Schemas['ResellerProductList'];
/** A promotion as the billing system describes it. */
export type Promotion = Schemas['Promotion'];
/** The answer of a promotion lookup. */
export type PromotionLookup = Schemas['PromotionLookup'];
/** A payment gateway. */
export type Gateway = Schemas['Gateway'];

/** Who sells (getMerchant): every page's footer. */
export type Merchant = Schemas['Merchant'];
/** The payment gateways and the default one. */
export type GatewayList = Schemas['GatewayList'];
/** The status of an order. */
export type OrderStatus = Schemas['OrderStatus'];
/** The status of an invoice. */
export type InvoiceStatus = Schemas['InvoiceStatus'];
/** The status of a service. */
export type ServiceStatus = Schemas['ServiceStatus'];
/** The body of a new order. */
export type OrderRequest = Schemas['OrderRequest'];
/** A created order with its invoice and payment link. */
export type OrderResponse = Schemas['OrderResponse'];
/** An order's status as polled while waiting for payment. */
export type OrderStatusResponse = Schemas['OrderStatusResponse'];
/** The status of an invoice (an upsell has an invoice and no order). */
export type InvoiceStatusResponse = Schemas['InvoiceStatusResponse'];
/** The body of an upsell invoice. */
export type AddInvoiceRequest = Schemas['AddInvoiceRequest'];
/** A created upsell invoice with its payment link. */
export type AddInvoiceResponse = Schemas['AddInvoiceResponse'];
/** The body asking a payment link for an invoice on a gateway. */
export type GatewayPaymentRequest = Schemas['GatewayPaymentRequest'];
/** A payment link for an invoice on a gateway. */
export type GatewayPaymentResponse = Schemas['GatewayPaymentResponse'];
/** A service with its credentials, shown on the success page. */
export type ClientProduct = Schemas['ClientProduct'];
/** A reseller service with its panel account. */
export type ResellerService = Schemas['ResellerService'];
/** What the renewal page shows of a service: its due date, whether it renews, its open renewal invoice. */
export type Renewal = Schemas['Renewal'];
/** A renewal invoice: one more period of a service. */
export type RenewalInvoice = Schemas['RenewalInvoice'];
/** An active service offered extra connections. */
export type ActiveProduct = Schemas['ActiveProduct'];
/** The client's active services offered extra connections. */
export type ActiveProductList = Schemas['ActiveProductList'];
/** The visitor's session. */
export type Session = Schemas['Session'];
/** The visitor's country and currency. */
export type VisitorCurrency = Schemas['VisitorCurrency'];
/** What an order or invoice bills, for the receipt block. */
export type Receipt = Schemas['Receipt'];
/** The latest payment link's state (null before one was made). */
export type PaymentProgress = Schemas['PaymentProgress'];
/** An order whose status changed (cancelOrder's answer). */
export type OrderStatusChange = Schemas['OrderStatusChange'];
/** A signed-in client (login, sign-up). */
export type AuthResponse = Schemas['AuthResponse'];
/** A guest identified by e-mail for ordering. */
export type GuestAuthResponse = Schemas['GuestAuthResponse'];
/** The body of a reseller's sign-in or sign-up. */
export type ResellerAuthRequest = Schemas['ResellerAuthRequest'];
/** A reseller's sign-in or sign-up. */
export type ResellerAuthResponse = Schemas['ResellerAuthResponse'];
/** The body saving a service's device address. */
export type UpdateMacAddressRequest = Schemas['UpdateMacAddressRequest'];
/** The device address saved on a service. */
export type UpdateMacAddressResponse = Schemas['UpdateMacAddressResponse'];
/** A payment notification sent by a gateway. */
export type WebhookEvent = Schemas['WebhookEvent'];
