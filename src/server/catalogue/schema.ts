import { BILLING_CYCLES, type PricingKey } from '../../domain/billing-cycle';
import { CURRENCIES, type Currency } from '../../domain/currency';
import { LOCALES, type Locale } from '../../domain/locale';
import { PAYMENT_MARKS, PLAN_BADGES, type PaymentMark, type PlanBadge } from '../../domain/showcase';

/** The cycles a pricing table is keyed by (One Time is priced as monthly). */
export const PRICING_KEYS: readonly PricingKey[] = ['monthly', 'quarterly', 'semiannually', 'annually', 'biennially', 'triennially'];

/** A date as the billing system keeps it; 0000-00-00 means unbounded. */
const DATE = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', title: 'a date YYYY-MM-DD (0000-00-00 for none)' } as const;
const ID = { type: 'integer', minimum: 1 } as const;
const TEXT = { type: 'string', minLength: 1 } as const;

/** Prices per cycle; -1 (or a missing cycle) means not sold in that cycle. */
const CYCLE_PRICES = {
  type: 'object',
  title: 'billing cycle',
  properties: Object.fromEntries(PRICING_KEYS.map((key) => [key, { type: 'number' }])),
  additionalProperties: false,
} as const;

/** Prices per currency the store supports; a missing currency is not sold in it. */
const PRICING = {
  type: 'object',
  title: 'currency the store supports',
  properties: Object.fromEntries(CURRENCIES.map((code) => [code, CYCLE_PRICES])),
  additionalProperties: false,
} as const;

/** A link the shop shows: an https:// URL, or a path on this site (one /; `//host/…` is another site, `/\\…` is read as one by browsers). */
const LINK = { type: 'string', pattern: '^(https://[^\\s<>"]+|/(?![/\\\\])[^\\s<>"]*)$', title: 'an https:// URL or a path on this site starting with a single /' } as const;

/** Texts per locale, e.g. `de-de: { name: …, description: … }`; a locale left out shows the default text. */
const translations = (fields: Record<string, unknown>) => ({
  type: 'object',
  propertyNames: { enum: [...LOCALES], title: 'locale' },
  additionalProperties: { type: 'object', title: 'translated field', additionalProperties: false, minProperties: 1, properties: fields },
} as const);

/** Who sells: shown in every page's footer and on the hosted sandbox page. */
const MERCHANT = {
  type: 'object',
  title: 'merchant field',
  additionalProperties: false,
  properties: {
    name: TEXT,
    logo: LINK,
    supportEmail: { type: 'string', pattern: '^[^\\s@<>"]+@[^\\s@<>"]+\\.[^\\s@<>"]+$', title: 'an e-mail address' },
    supportUrl: LINK,
    termsUrl: LINK,
    privacyUrl: LINK,
    refundUrl: LINK,
  },
} as const;

/** The JSON Schema of CATALOGUE_FILE (YAML or JSON); semantic rules (unique keys, references) are checked after it. */
export const CATALOGUE_SCHEMA = {
  type: 'object',
  required: ['currencies', 'products'],
  additionalProperties: false,
  properties: {
    merchant: MERCHANT,
    currencies: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['code', 'rate'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', enum: [...CURRENCIES] },
          rate: { type: 'number', exclusiveMinimum: 0, maximum: 99999 },
          default: { type: 'boolean' },
        },
      },
    },
    options: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'pricing'],
        additionalProperties: false,
        properties: { id: ID, name: TEXT, pricing: PRICING },
      },
    },
    products: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['pid', 'group', 'sortOrder', 'name', 'paytype', 'billingcycle', 'pricing', 'customFields'],
        additionalProperties: false,
        properties: {
          pid: ID,
          group: { type: 'string', enum: ['retail', 'reseller'] },
          sortOrder: { type: 'integer' },
          name: TEXT,
          description: { type: 'string' },
          paytype: { type: 'string', enum: ['onetime', 'recurring'] },
          billingcycle: { type: 'string', enum: [...BILLING_CYCLES] },
          pricing: PRICING,
          options: { type: 'array', items: ID, uniqueItems: true },
          customFields: {
            type: 'object',
            required: ['username', 'password'],
            additionalProperties: false,
            properties: { username: ID, password: ID },
          },
          translations: translations({ name: TEXT, description: { type: 'string' } }),
          badge: { type: 'string', enum: [...PLAN_BADGES], title: 'plan badge' },
        },
      },
    },
    promotions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['code', 'type', 'value', 'appliesto'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', pattern: '^\\S+$', title: 'a code without spaces' },
          type: { type: 'string', enum: ['Percentage', 'Fixed Amount'] },
          value: { type: 'number', exclusiveMinimum: 0, maximum: 99999999 },
          appliesto: { type: 'array', items: ID, minItems: 1, uniqueItems: true },
          startdate: DATE,
          expirationdate: DATE,
          maxuses: { type: 'integer', minimum: 0 },
          uses: { type: 'integer', minimum: 0 },
          recurring: { type: 'boolean' },
        },
      },
    },
    gateways: {
      type: 'object',
      propertyNames: { pattern: '^[a-z0-9]+$', title: 'gateway module' },
      // A name, or a name with its translations: `sandbox: { name: Card, translations: { de-de: { name: Karte } } }`.
      additionalProperties: {
        type: ['string', 'object'],
        title: 'gateway field',
        minLength: 1,
        required: ['name'],
        additionalProperties: false,
        properties: { name: TEXT, translations: translations({ name: TEXT }), marks: { type: 'array', items: { type: 'string', enum: [...PAYMENT_MARKS], title: 'payment mark' }, uniqueItems: true } },
      },
    },
  },
} as const;

type CyclePrices = Partial<Record<PricingKey, number>>;
type FilePricing = Partial<Record<Currency, CyclePrices>>;

/** Texts per locale as written; a locale left out shows the default. */
export type FileTranslations<Fields> = Partial<Record<Locale, Fields>>;

/** The merchant as written. */
export interface FileMerchant {
  name?: string;
  logo?: string;
  supportEmail?: string;
  supportUrl?: string;
  termsUrl?: string;
  privacyUrl?: string;
  refundUrl?: string;
}

/** The file as written (after the schema check). */
export interface CatalogueFileContent {
  merchant?: FileMerchant;
  currencies: { code: Currency; rate: number; default?: boolean }[];
  options?: { id: number; name: string; pricing: FilePricing }[];
  products: {
    pid: number;
    group: 'retail' | 'reseller';
    sortOrder: number;
    name: string;
    description?: string;
    paytype: 'onetime' | 'recurring';
    billingcycle: (typeof BILLING_CYCLES)[number];
    pricing: FilePricing;
    options?: number[];
    customFields: { username: number; password: number };
    translations?: FileTranslations<{ name?: string; description?: string }>;
    /** The word on the plan's card that singles it out. */
    badge?: PlanBadge;
  }[];
  promotions?: {
    code: string;
    type: 'Percentage' | 'Fixed Amount';
    value: number;
    appliesto: number[];
    startdate?: string;
    expirationdate?: string;
    maxuses?: number;
    uses?: number;
    /** Applies again to each renewal of a service ordered with it; the first period only when left out. */
    recurring?: boolean;
  }[];
  gateways?: Record<string, string | { name: string; translations?: FileTranslations<{ name?: string }>; marks?: PaymentMark[] }>;
}
