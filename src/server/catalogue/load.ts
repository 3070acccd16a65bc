import { readFileSync } from 'node:fs';
import { extname, isAbsolute, join, relative } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import { pricingKey } from '../../domain/billing-cycle';
import { CURRENCIES, type Currency } from '../../domain/currency';
import type { Locale } from '../../domain/locale';
import type { PaymentMark, PlanBadge } from '../../domain/showcase';
import type { PricingTable } from '../../domain/pricing';
import { NO_DATE } from '../../domain/promotion';
import { ConfigError, type ServerConfig } from '../config';
import { projectRoot } from '../project-root';
import { CATALOGUE_SCHEMA, PRICING_KEYS, type CatalogueFileContent, type FileMerchant } from './schema';

/** The demo's catalogue, applied in demo mode when CATALOGUE_FILE is unset (found from the bundle too). */
export const DEMO_CATALOGUE_FILE = join(projectRoot, 'src/server/catalogue/demo.yaml');

const NOT_SOLD = -1;

/** The catalogue as the store keeps it: every table complete, references checked. */
export interface Catalogue {
  /** The file it came from, as named in messages. */
  source: string;
  currencies: { code: Currency; rate: number; isDefault: boolean }[];
  options: { id: number; name: string; pricing: PricingTable }[];
  products: {
    pid: number; group: 'retail' | 'reseller'; sortOrder: number; name: string; description: string; paytype: 'onetime' | 'recurring';
    billingcycle: string; pricing: PricingTable; configOptionIds: number[]; usernameFieldId: number; passwordFieldId: number;
  }[];
  promotions: {
    code: string; type: 'Percentage' | 'Fixed Amount'; value: number; appliesto: string; startdate: string; expirationdate: string; maxuses: number;
    /** Applies again to each renewal of a service ordered with it (false: the first period only). */
    recurring: boolean;
    /** The uses a promotion starts with when it is new; an existing promotion's count is never changed by the file. */
    initialUses: number;
  }[];
  gateways: { module: string; displayname: string }[];
  /** Who sells (name, logo, support, terms, privacy, refund), as the file gives it; checked for production by merchantProblems. */
  merchant: FileMerchant;
  /** The line of each merchant field the file sets, so a refusal can name it. */
  merchantLines: Partial<Record<keyof FileMerchant, number>>;
  /** Names and descriptions per locale, by pid and by gateway module; kept in memory, never in the store (a locale left out shows the default). */
  translations: CatalogueTranslations;
  /** Each plan's badge and each gateway's payment marks; kept in memory like the translations, never in the store. */
  showcase: CatalogueShowcase;
}

/** How the file dresses plans and payment methods: a plan left out has no badge, a gateway left out no marks. */
export interface CatalogueShowcase {
  badges: Map<number, PlanBadge>;
  marks: Map<string, PaymentMark[]>;
}

/** The file's translations: a locale left out of one shows the default text. */
export interface CatalogueTranslations {
  products: Map<number, Partial<Record<Locale, { name?: string; description?: string }>>>;
  gateways: Map<string, Partial<Record<Locale, { name?: string }>>>;
}

type Path = (string | number)[];

/** `products[1].pricing.EUR` from ['products', 1, 'pricing', 'EUR']. */
export function pathText(path: Path): string {
  return path.reduce<string>((text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : text ? `${text}.${segment}` : segment), '');
}

let validator: ReturnType<Ajv['compile']> | null = null;
const validate = (value: unknown) => {
  validator ??= new Ajv({ allErrors: false, strict: true, allowUnionTypes: true, verbose: true }).compile(CATALOGUE_SCHEMA);
  return validator(value) ? null : (validator.errors?.[0] ?? null);
};

const typeName: Record<string, string> = {
  number: 'a number', integer: 'a whole number', string: 'a text', boolean: 'true or false', array: 'a list', object: 'a mapping (field: value)',
  'string,object': 'a text or a mapping (field: value)',
};

/** Ajv's first error as [where, what]: the path of the value at fault and the sentence about it. */
function describeSchemaError(error: ErrorObject): [Path, string] {
  const path: Path = error.instancePath.split('/').slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
  const parent = error.parentSchema as { title?: string; properties?: Record<string, unknown> } | undefined;
  const params = error.params as Record<string, unknown>;
  if (error.propertyName !== undefined) {
    if (error.keyword === 'enum') return [[...path, error.propertyName], `is not a ${parent?.title ?? 'known name'} (${(params.allowedValues as unknown[]).join(', ')})`];
    return [[...path, error.propertyName], `is not a ${parent?.title ?? 'known name'} name (lower-case letters and digits)`];
  }
  switch (error.keyword) {
    case 'type': return [path, `must be ${typeName[String(params.type)] ?? String(params.type)}`];
    case 'required': return [[...path, String(params.missingProperty)], 'is missing'];
    case 'additionalProperties': {
      const known = Object.keys(parent?.properties ?? {}).join(', ');
      return [[...path, String(params.additionalProperty)], `is not a ${parent?.title ?? 'known field'} (${known})`];
    }
    case 'enum': return [path, `must be one of ${(params.allowedValues as unknown[]).join(', ')}`];
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum': {
      const words: Record<string, string> = { '>=': 'at least', '>': 'more than', '<=': 'at most', '<': 'less than' };
      return [path, `must be ${words[String(params.comparison)] ?? String(params.comparison)} ${String(params.limit)}`];
    }
    case 'pattern': return [path, `must be ${parent?.title ?? `text matching ${String(params.pattern)}`}`];
    case 'minLength': return [path, 'must not be empty'];
    case 'minItems': return [path, `must list at least ${String(params.limit)}`];
    case 'uniqueItems': return [[...path, Number(params.i)], `is listed twice (also at [${String(params.j)}])`];
    default: return [path, error.message ?? 'is not valid'];
  }
}

/** The line of the value at `path` (or of the key, for a field that should not be there), else of its nearest parent. */
function lineOf(doc: Document, lines: LineCounter, path: Path, atKey = false): number {
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const here = path.slice(0, depth);
    if (atKey && depth === path.length && depth > 0) {
      const parent = here.length > 1 ? doc.getIn(here.slice(0, -1), true) : doc.contents;
      const pair = isMap(parent) ? parent.items.find((item) => String((item.key as { value?: unknown } | null)?.value ?? item.key) === String(here.at(-1))) : undefined;
      const range = (pair?.key as { range?: [number, number, number] } | null)?.range;
      if (range) return lines.linePos(range[0]).line;
      continue;
    }
    const node = (depth === 0 ? doc.contents : doc.getIn(here, true)) as { range?: [number, number, number] } | null | undefined;
    if (node?.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}

/** The name of the file in messages: relative to the working directory when under it. */
function displayName(file: string): string {
  const near = relative(process.cwd(), file);
  return near && !near.startsWith('..') && !isAbsolute(near) ? near : file;
}

const hasCents = (value: number, decimals: number) => Math.abs(Math.round(value * 10 ** decimals) - value * 10 ** decimals) < 1e-6;
const isCalendarDate = (text: string) => {
  if (text === NO_DATE) return true;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
};

/**
 * Parses and checks a catalogue: the schema first, then the rules a schema cannot say (unique keys,
 * references, one default currency). A fault is a ConfigError naming the file, the line and the field.
 */
export function parseCatalogue(text: string, format: 'yaml' | 'json', source: string): Catalogue {
  const lines = new LineCounter();
  const fault = (line: number, message: string) => new ConfigError(`CATALOGUE_FILE ${source} line ${line}: ${message}`);
  if (format === 'json') {
    try {
      JSON.parse(text);
    } catch (error) {
      // Node's message gives a line or a position on most versions; YAML's parse of the same text says where otherwise.
      const message = (error as Error).message;
      const line = /line (\d+)/.exec(message)?.[1];
      const position = /position (\d+)/.exec(message)?.[1];
      const yamlLine = parseDocument(text, { lineCounter: lines }).errors[0]?.linePos?.[0].line;
      throw fault(line ? Number(line) : position ? text.slice(0, Number(position)).split('\n').length : (yamlLine ?? 1), `not valid JSON (${message.split('\n')[0]})`);
    }
  }
  // YAML 1.2 reads JSON too; both get line numbers from the same parse.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const [parseError] = doc.errors;
  if (parseError) throw fault(parseError.linePos?.[0].line ?? 1, `not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${parseError.message.split('\n')[0]}`);
  const content: unknown = doc.toJS();
  const at = (path: Path, message: string, atKey = false) => fault(lineOf(doc, lines, path, atKey), `${pathText(path) || 'the file'} ${message}`);

  const schemaError = validate(content);
  if (schemaError) {
    const [path, message] = describeSchemaError(schemaError);
    throw at(path, message, schemaError.keyword === 'additionalProperties' || schemaError.propertyName !== undefined);
  }
  const file = content as CatalogueFileContent;

  /** Refuses a key given twice in a list (compared after `same`, e.g. letter case aside). */
  const unique = <T extends Record<K, string | number>, K extends string>(list: T[], field: string, key: K, same = (value: T[K]) => String(value)) => {
    const seen = new Map<string, number>();
    list.forEach((item, index) => {
      const first = seen.get(same(item[key]));
      if (first !== undefined) throw at([field, index, key], `${String(item[key])} is listed twice (also ${field}[${first}])`);
      seen.set(same(item[key]), index);
    });
  };

  // Currencies: each one the store prices in, exactly one default, at rate 1.
  unique(file.currencies, 'currencies', 'code');
  const missing = CURRENCIES.filter((code) => !file.currencies.some((currency) => currency.code === code));
  if (missing.length) throw at(['currencies'], `must list every currency the store prices in (${CURRENCIES.join(', ')}); missing: ${missing.join(', ')}`);
  const defaults = file.currencies.flatMap((currency, index) => (currency.default ? [index] : []));
  if (defaults.length === 0) throw at(['currencies'], 'must have one default currency (default: true, rate: 1)');
  if (defaults.length > 1) throw at(['currencies', defaults[1] as number, 'default'], `is a second default currency (currencies[${defaults[0]}] is one); exactly one is the default`);
  file.currencies.forEach((currency, index) => {
    if (currency.default && currency.rate !== 1) throw at(['currencies', index, 'rate'], 'must be 1 for the default currency (rates are units per unit of the default)');
    if (!hasCents(currency.rate, 5)) throw at(['currencies', index, 'rate'], 'must have at most 5 decimals');
  });

  const checkPricing = (pricing: CatalogueFileContent['products'][number]['pricing'], where: Path): PricingTable => {
    const table: PricingTable = {};
    for (const code of CURRENCIES) {
      const prices: Record<string, number> = {};
      for (const key of PRICING_KEYS) {
        const price = pricing[code]?.[key] ?? NOT_SOLD;
        if (price !== NOT_SOLD && price < 0) throw at([...where, code, key], 'must be -1 (not sold) or a price of 0 or more');
        if (!hasCents(price, 2)) throw at([...where, code, key], 'must have at most 2 decimals');
        prices[key] = price;
      }
      table[code] = prices;
    }
    return table;
  };

  const options = file.options ?? [];
  unique(options, 'options', 'id');
  const optionIds = new Set(options.map((option) => option.id));

  unique(file.products, 'products', 'pid');
  const products = file.products.map((product, index) => {
    (product.options ?? []).forEach((id, position) => {
      if (!optionIds.has(id)) throw at(['products', index, 'options', position], `names option ${id}, which options does not define`);
    });
    const pricing = checkPricing(product.pricing, ['products', index, 'pricing']);
    const key = pricingKey(product.billingcycle);
    if (!CURRENCIES.some((code) => (pricing[code]?.[key] ?? NOT_SOLD) >= 0)) {
      throw at(['products', index, 'pricing'], `has no price for its billing cycle ${product.billingcycle} (${key}) in any currency`);
    }
    return {
      pid: product.pid, group: product.group, sortOrder: product.sortOrder, name: product.name, description: product.description ?? '',
      paytype: product.paytype, billingcycle: product.billingcycle, pricing, configOptionIds: product.options ?? [],
      usernameFieldId: product.customFields.username, passwordFieldId: product.customFields.password,
    };
  });
  const popular = file.products.flatMap((product, index) => (product.badge === 'popular' ? [index] : []));
  if (popular.length > 1) throw at(['products', popular[1]!, 'badge'], `marks a second plan popular (products[${popular[0]}] is already)`);
  const pids = new Set(products.map((product) => product.pid));

  const promotionList = file.promotions ?? [];
  unique(promotionList, 'promotions', 'code', (code) => code.toLowerCase());
  const promotions = promotionList.map((promotion, index) => {
    const where = (field: string, ...rest: Path): Path => ['promotions', index, field, ...rest];
    promotion.appliesto.forEach((pid, position) => {
      if (!pids.has(pid)) throw at(where('appliesto', position), `names product ${pid}, which products does not define`);
    });
    if (promotion.type === 'Percentage' && promotion.value > 100) throw at(where('value'), 'must be at most 100 for a Percentage');
    if (!hasCents(promotion.value, 2)) throw at(where('value'), 'must have at most 2 decimals');
    const startdate = promotion.startdate ?? NO_DATE;
    const expirationdate = promotion.expirationdate ?? NO_DATE;
    if (!isCalendarDate(startdate)) throw at(where('startdate'), 'is not a date of the calendar');
    if (!isCalendarDate(expirationdate)) throw at(where('expirationdate'), 'is not a date of the calendar');
    if (startdate !== NO_DATE && expirationdate !== NO_DATE && expirationdate < startdate) throw at(where('expirationdate'), `is before the startdate ${startdate}`);
    const maxuses = promotion.maxuses ?? 0;
    const initialUses = promotion.uses ?? 0;
    if (maxuses > 0 && initialUses > maxuses) throw at(where('uses'), `must not exceed maxuses (${maxuses})`);
    return {
      code: promotion.code, type: promotion.type, value: promotion.value, appliesto: promotion.appliesto.join(','),
      startdate, expirationdate, maxuses, recurring: promotion.recurring ?? false, initialUses,
    };
  });

  return {
    source,
    currencies: file.currencies.map((currency) => ({ code: currency.code, rate: currency.rate, isDefault: currency.default === true })),
    options: options.map((option, index) => ({ id: option.id, name: option.name, pricing: checkPricing(option.pricing, ['options', index, 'pricing']) })),
    products,
    promotions,
    gateways: Object.entries(file.gateways ?? {}).map(([module, entry]) => ({ module, displayname: typeof entry === 'string' ? entry : entry.name })),
    merchant: file.merchant ?? {},
    merchantLines: Object.fromEntries(Object.keys(file.merchant ?? {}).map((field) => [field, lineOf(doc, lines, ['merchant', field])])),
    translations: {
      products: new Map(file.products.flatMap((product) => (product.translations ? [[product.pid, product.translations] as const] : []))),
      gateways: new Map(Object.entries(file.gateways ?? {}).flatMap(([module, entry]) => (typeof entry !== 'string' && entry.translations ? [[module, entry.translations] as const] : []))),
    },
    showcase: {
      badges: new Map(file.products.flatMap((product) => (product.badge ? [[product.pid, product.badge] as const] : []))),
      marks: new Map(Object.entries(file.gateways ?? {}).flatMap(([module, entry]) => (typeof entry !== 'string' && entry.marks ? [[module, entry.marks] as const] : []))),
    },
  };
}

/** Reads and checks a catalogue file: YAML (.yaml, .yml) or JSON (.json), by its extension. */
export function loadCatalogueFile(file: string): Catalogue {
  const source = displayName(file);
  const extension = extname(file).toLowerCase();
  const format = extension === '.json' ? 'json' : extension === '.yaml' || extension === '.yml' ? 'yaml' : null;
  if (!format) throw new ConfigError(`CATALOGUE_FILE ${source} must be a .yaml, .yml or .json file.`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`CATALOGUE_FILE names ${source}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  return parseCatalogue(text, format, source);
}

/**
 * The catalogue this start applies: CATALOGUE_FILE when set; in demo the demo's own file otherwise. Production
 * without it refuses: its catalogue is the operator's, never the demo's.
 */
export const CATALOGUE_FILE_MISSING = 'CATALOGUE_FILE is not set: production takes its products, prices, options, promotions and currencies from the catalogue file the operator edits (README, "Catalogue file"), never the demo\'s.';

export function catalogueForStart(config: Pick<ServerConfig, 'mode' | 'catalogueFile'>): Catalogue {
  if (config.catalogueFile) return loadCatalogueFile(config.catalogueFile);
  if (config.mode === 'production') throw new ConfigError(CATALOGUE_FILE_MISSING);
  return loadCatalogueFile(DEMO_CATALOGUE_FILE);
}
