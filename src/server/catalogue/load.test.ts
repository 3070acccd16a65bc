import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config';
import { projectRoot } from '../project-root';
import { catalogueForStart, DEMO_CATALOGUE_FILE, loadCatalogueFile, parseCatalogue } from './load';

/** A small catalogue, one line per entry so a test can name the line a fault is on. */
const LINES = [
  'currencies:', //                                   1
  '  - code: EUR', //                                 2
  '    rate: 1', //                                   3
  '    default: true', //                             4
  '  - code: GBP', //                                 5
  '    rate: 0.8', //                                 6
  'options:', //                                      7
  '  - id: 2', //                                     8
  '    name: Extra connection', //                    9
  '    pricing:', //                                  10
  '      EUR: { monthly: 4 }', //                     11
  'products:', //                                     12
  '  - pid: 1', //                                    13
  '    group: retail', //                             14
  '    sortOrder: 1', //                              15
  '    name: 1 Month', //                             16
  '    paytype: recurring', //                        17
  '    billingcycle: Monthly', //                     18
  '    pricing: { EUR: { monthly: 12.5 } }', //       19
  '    options: [2]', //                              20
  '    customFields: { username: 11, password: 12 }', // 21
  '  - pid: 7', //                                    22
  '    group: reseller', //                           23
  '    sortOrder: 1', //                              24
  '    name: Credits', //                             25
  '    description: A pack.', //                      26
  '    paytype: onetime', //                          27
  '    billingcycle: One Time', //                    28
  '    pricing:', //                                  29
  '      EUR:', //                                    30
  '        monthly: 100', //                          31
  '      GBP:', //                                    32
  '        monthly: 80', //                           33
  '    customFields: { username: 21, password: 22 }', // 34
  'promotions:', //                                   35
  '  - code: TEN', //                                 36
  '    type: Percentage', //                          37
  '    value: 10', //                                 38
  '    appliesto: [1]', //                            39
  '    maxuses: 5', //                                40
  '    uses: 2', //                                   41
  'gateways:', //                                     42
  '  sandbox: Card', //                               43
];
const VALID = `${LINES.join('\n')}\n`;

/** The valid catalogue with line `line` (1-based) replaced by `text` (several lines allowed). */
const withLine = (line: number, text: string) => LINES.map((original, index) => (index === line - 1 ? text : original)).join('\n');

/** The one-line refusal parsing `text` gives. */
const refusal = (text: string, format: 'yaml' | 'json' = 'yaml') => {
  try {
    parseCatalogue(text, format, 'catalogue.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('The catalogue was accepted');
};

const NOT_SOLD = { monthly: -1, quarterly: -1, semiannually: -1, annually: -1, biennially: -1, triennially: -1 };

describe('a valid catalogue file', () => {
  it('is read into complete tables: missing cycles and currencies not sold (-1), appliesto as the store keeps it, defaults filled', () => {
    const catalogue = parseCatalogue(VALID, 'yaml', 'catalogue.yaml');
    expect(catalogue.currencies).toEqual([{ code: 'EUR', rate: 1, isDefault: true }, { code: 'GBP', rate: 0.8, isDefault: false }]);
    expect(catalogue.options).toEqual([{ id: 2, name: 'Extra connection', pricing: { EUR: { ...NOT_SOLD, monthly: 4 }, GBP: NOT_SOLD } }]);
    expect(catalogue.products).toEqual([
      {
        pid: 1, group: 'retail', sortOrder: 1, name: '1 Month', description: '', paytype: 'recurring', billingcycle: 'Monthly',
        pricing: { EUR: { ...NOT_SOLD, monthly: 12.5 }, GBP: NOT_SOLD }, configOptionIds: [2], usernameFieldId: 11, passwordFieldId: 12,
      },
      {
        pid: 7, group: 'reseller', sortOrder: 1, name: 'Credits', description: 'A pack.', paytype: 'onetime', billingcycle: 'One Time',
        pricing: { EUR: { ...NOT_SOLD, monthly: 100 }, GBP: { ...NOT_SOLD, monthly: 80 } }, configOptionIds: [], usernameFieldId: 21, passwordFieldId: 22,
      },
    ]);
    expect(catalogue.promotions).toEqual([
      { code: 'TEN', type: 'Percentage', value: 10, appliesto: '1', startdate: '0000-00-00', expirationdate: '0000-00-00', maxuses: 5, recurring: false, initialUses: 2 },
    ]);
    expect(catalogue.gateways).toEqual([{ module: 'sandbox', displayname: 'Card' }]);
  });

  it('keeps the merchant and the translations per locale apart from the store\'s tables; a gateway may be a name or a name with translations', () => {
    const text = `merchant:\n  name: Streamers B.V.\n  termsUrl: https://streamers.example/terms\n  privacyUrl: /privacy\n${withLine(43, '  sandbox:\n    name: Card\n    translations: { de-de: { name: Karte } }\n  sandboxcrypto: Bitcoin')}`
      .replace('    customFields: { username: 11, password: 12 }', '    customFields: { username: 11, password: 12 }\n    translations: { de-de: { name: 1 Monat, description: Alles. }, es-es: { name: 1 mes } }');
    const catalogue = parseCatalogue(text, 'yaml', 'x.yaml');
    expect(catalogue.merchant).toEqual({ name: 'Streamers B.V.', termsUrl: 'https://streamers.example/terms', privacyUrl: '/privacy' });
    expect(catalogue.gateways).toEqual([{ module: 'sandbox', displayname: 'Card' }, { module: 'sandboxcrypto', displayname: 'Bitcoin' }]);
    expect([...catalogue.translations.products]).toEqual([[1, { 'de-de': { name: '1 Monat', description: 'Alles.' }, 'es-es': { name: '1 mes' } }]]);
    expect([...catalogue.translations.gateways]).toEqual([['sandbox', { 'de-de': { name: 'Karte' } }]]);
    expect(catalogue.products[0]).not.toHaveProperty('translations');
  });

  it('keeps a plan\'s badge and a gateway\'s payment marks apart from the store\'s tables', () => {
    const text = withLine(43, '  sandbox:\n    name: Card\n    marks: [visa, mastercard]\n  sandboxcrypto: Bitcoin').replace('    name: 1 Month', '    name: 1 Month\n    badge: popular');
    const catalogue = parseCatalogue(text, 'yaml', 'x.yaml');
    expect([...catalogue.showcase.badges]).toEqual([[1, 'popular']]);
    expect([...catalogue.showcase.marks]).toEqual([['sandbox', ['visa', 'mastercard']]]);
    expect(catalogue.products[0]).not.toHaveProperty('badge');
    expect(catalogue.gateways).toEqual([{ module: 'sandbox', displayname: 'Card' }, { module: 'sandboxcrypto', displayname: 'Bitcoin' }]);
  });

  it('reads the same catalogue from JSON', () => {
    const json = JSON.stringify({
      currencies: [{ code: 'EUR', rate: 1, default: true }, { code: 'GBP', rate: 0.8 }],
      options: [{ id: 2, name: 'Extra connection', pricing: { EUR: { monthly: 4 } } }],
      products: [
        { pid: 1, group: 'retail', sortOrder: 1, name: '1 Month', paytype: 'recurring', billingcycle: 'Monthly', pricing: { EUR: { monthly: 12.5 } }, options: [2], customFields: { username: 11, password: 12 } },
        { pid: 7, group: 'reseller', sortOrder: 1, name: 'Credits', description: 'A pack.', paytype: 'onetime', billingcycle: 'One Time', pricing: { EUR: { monthly: 100 }, GBP: { monthly: 80 } }, customFields: { username: 21, password: 22 } },
      ],
      promotions: [{ code: 'TEN', type: 'Percentage', value: 10, appliesto: [1], maxuses: 5, uses: 2 }],
      gateways: { sandbox: 'Card' },
    }, null, 2);
    expect({ ...parseCatalogue(json, 'json', 'x.json'), source: 'same' }).toEqual({ ...parseCatalogue(VALID, 'yaml', 'x.yaml'), source: 'same' });
  });

  it('the example in the README\'s "Catalogue file" section is a valid catalogue', () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const example = /## Catalogue file[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const catalogue = parseCatalogue(example ?? '', 'yaml', 'README.md');
    expect(catalogue.products.map((product) => product.pid)).toEqual([1]);
    expect(catalogue.promotions.map((promotion) => promotion.code)).toEqual(['WELCOME10']);
  });

  it('the demo file is the demo catalogue of the README: plans 1-3, reseller products 10-13, seven promotions, USEDUP50 starting used up, LOYAL15 recurring', () => {
    const demo = loadCatalogueFile(DEMO_CATALOGUE_FILE);
    expect(demo.products.map((product) => [product.pid, product.name])).toEqual([
      [1, '1 Month'], [2, '6 Months'], [3, 'Lifetime'], [10, 'Reseller 50 credits'], [11, 'Reseller 120 credits'], [12, 'Reseller 300 credits'], [13, 'Reseller panel activation'],
    ]);
    expect(demo.products[0]?.pricing).toEqual({ EUR: { ...NOT_SOLD, monthly: 12.99 }, GBP: { ...NOT_SOLD, monthly: 10.99 } });
    expect(demo.promotions.map((promotion) => promotion.code)).toEqual(['WELCOME10', 'SAVE5', 'HALFYEAR20', 'EXPIRED15', 'FUTURE25', 'USEDUP50', 'LOYAL15']);
    expect(demo.promotions.find((promotion) => promotion.code === 'USEDUP50')).toMatchObject({ maxuses: 1, initialUses: 1 });
    expect(demo.promotions.filter((promotion) => promotion.recurring).map((promotion) => promotion.code)).toEqual(['LOYAL15']);
    expect(demo.currencies).toEqual([{ code: 'EUR', rate: 1, isDefault: true }, { code: 'GBP', rate: 0.85, isDefault: false }]);
  });
});

describe('a bad catalogue file is refused with the file, the line and the field', () => {
  it.each([
    ['a price given as text', withLine(19, '    pricing: { EUR: { monthly: "12.5" } }'), 'line 19: products[0].pricing.EUR.monthly must be a number'],
    ['a price of the second product as text', withLine(31, '        monthly: ten'), 'line 31: products[1].pricing.EUR.monthly must be a number'],
    ['a missing name (the product\'s line)', withLine(16, ''), 'line 13: products[0].name is missing'],
    ['a missing top-level list', LINES.slice(0, 11).join('\n'), 'line 1: products is missing'],
    ['an unknown field', withLine(26, '    colour: red'), 'line 26: products[1].colour is not a known field'],
    ['a currency the store does not price in, in a pricing table', withLine(19, '    pricing: { USD: { monthly: 12.5 } }'), 'line 19: products[0].pricing.USD is not a currency the store supports (EUR, GBP)'],
    ['an unknown billing cycle key', withLine(11, '      EUR: { weekly: 4 }'), 'line 11: options[0].pricing.EUR.weekly is not a billing cycle'],
    ['a currency the store does not support', withLine(5, '  - code: USD'), 'line 5: currencies[1].code must be one of EUR, GBP'],
    ['an unknown billing cycle', withLine(18, '    billingcycle: Weekly'), 'line 18: products[0].billingcycle must be one of Monthly, Quarterly, Semi-Annually, Annually, Biennially, Triennially, One Time'],
    ['a product naming an unknown option', withLine(20, '    options: [4]'), 'line 20: products[0].options[0] names option 4, which options does not define'],
    ['a duplicate pid', withLine(22, '  - pid: 1'), 'line 22: products[1].pid 1 is listed twice (also products[0])'],
    ['two default currencies', withLine(6, '    rate: 1\n    default: true'), 'line 7: currencies[1].default is a second default currency (currencies[0] is one); exactly one is the default'],
    ['no default currency', withLine(4, ''), 'line 2: currencies must have one default currency (default: true, rate: 1)'],
    ['a default currency at a rate other than 1', withLine(3, '    rate: 1.2'), 'line 3: currencies[0].rate must be 1 for the default currency'],
    ['a currency missing', withLine(5, '').replace('    rate: 0.8\n', ''), 'line 2: currencies must list every currency the store prices in (EUR, GBP); missing: GBP'],
    ['a promotion applying to an unknown product', withLine(39, '    appliesto: [1, 9]'), 'line 39: promotions[0].appliesto[1] names product 9, which products does not define'],
    ['a promotion with an impossible date', withLine(40, '    startdate: 2024-02-30'), 'line 40: promotions[0].startdate is not a date of the calendar'],
    ['a promotion with a date not written YYYY-MM-DD', withLine(40, '    expirationdate: 31/12/2099'), 'line 40: promotions[0].expirationdate must be a date YYYY-MM-DD (0000-00-00 for none)'],
    ['a promotion used more than it may be', withLine(41, '    uses: 6'), 'line 41: promotions[0].uses must not exceed maxuses (5)'],
    ['a Percentage over 100', withLine(38, '    value: 120'), 'line 38: promotions[0].value must be at most 100 for a Percentage'],
    ['a negative price other than -1', withLine(33, '        monthly: -5'), 'line 33: products[1].pricing.GBP.monthly must be -1 (not sold) or a price of 0 or more'],
    ['a price with fractions of a cent', withLine(33, '        monthly: 80.555'), 'line 33: products[1].pricing.GBP.monthly must have at most 2 decimals'],
    ['a product not sold in its own cycle', withLine(18, '    billingcycle: Annually'), 'line 19: products[0].pricing has no price for its billing cycle Annually (annually) in any currency'],
    ['a gateway module name that is not one', withLine(43, '  Sand Box: Card'), 'line 43: gateways.Sand Box is not a gateway module name'],
    ['a rate of 0', withLine(6, '    rate: 0'), 'line 6: currencies[1].rate must be more than 0'],
    ['a merchant link that is neither https nor a path', `merchant:\n  termsUrl: "javascript:alert(1)"\n${VALID}`, 'line 2: merchant.termsUrl must be an https:// URL or a path on this site starting with a single /'],
    ['a merchant link to another site that looks like a path', `merchant:\n  name: Shop\n  termsUrl: //evil.example/terms\n${VALID}`, 'line 3: merchant.termsUrl must be an https:// URL or a path on this site starting with a single /'],
    ['a merchant link a browser reads as another site', `merchant:\n  privacyUrl: "/\\\\evil.example/privacy"\n${VALID}`, 'line 2: merchant.privacyUrl must be an https:// URL or a path on this site starting with a single /'],
    ['a merchant link over plain http', `merchant:\n  refundUrl: http://shop.example/refunds\n${VALID}`, 'line 2: merchant.refundUrl must be an https:// URL or a path on this site starting with a single /'],
    ['a merchant support address that is not one', `merchant:\n  supportEmail: support\n${VALID}`, 'line 2: merchant.supportEmail must be an e-mail address'],
    ['an unknown merchant field', `merchant:\n  phone: "123"\n${VALID}`, 'line 2: merchant.phone is not a merchant field (name, logo, supportEmail, supportUrl, termsUrl, privacyUrl, refundUrl)'],
    ['a translation to a locale the checkout does not have', withLine(21, '    customFields: { username: 11, password: 12 }\n    translations: { fr-fr: { name: 1 Mois } }'), 'line 22: products[0].translations.fr-fr is not a locale (en-en, de-de, en-gb, es-es, nl-nl, pt-pt)'],
    ['a translated field a product does not have', withLine(21, '    customFields: { username: 11, password: 12 }\n    translations: { de-de: { title: 1 Monat } }'), 'line 22: products[0].translations.de-de.title is not a translated field (name, description)'],
    ['a gateway written as a mapping without its name', withLine(43, '  sandbox: { translations: { de-de: { name: Karte } } }'), 'line 43: gateways.sandbox.name is missing'],
    ['a payment mark the checkout does not draw', withLine(43, '  sandbox: { name: Card, marks: [visa, amex] }'), 'line 43: gateways.sandbox.marks[1] must be one of visa, mastercard, applepay, googlepay, bitcoin, usdc'],
    ['a plan badge the checkout does not have', withLine(16, '    name: 1 Month\n    badge: best'), 'line 17: products[0].badge must be one of popular'],
    ['two plans marked popular', withLine(16, '    name: 1 Month\n    badge: popular').replace('    name: Credits', '    name: Credits\n    badge: popular'), 'line 27: products[1].badge marks a second plan popular (products[0] is already)'],
    ['not YAML', withLine(20, '    options: [2'), 'not valid YAML'],
    ['a key given twice', withLine(17, '    name: Again'), 'line 17: not valid YAML: Map keys must be unique'],
  ])('%s', (_name, text, expected) => {
    const message = refusal(text);
    expect(message.startsWith('CATALOGUE_FILE catalogue.yaml line ')).toBe(true);
    expect(message).toContain(expected);
  });

  it('a promotion code given twice in another letter case', () => {
    const twice = VALID.replace('  - code: TEN\n', '  - { code: ten, type: Percentage, value: 5, appliesto: [1] }\n  - code: TEN\n');
    expect(refusal(twice)).toBe('CATALOGUE_FILE catalogue.yaml line 37: promotions[1].code TEN is listed twice (also promotions[0])');
  });

  it('exact message for a wrong type, as main.ts prints it', () => {
    expect(refusal(withLine(31, '        monthly: "100"'))).toBe('CATALOGUE_FILE catalogue.yaml line 31: products[1].pricing.EUR.monthly must be a number');
  });

  it('JSON that does not parse names the line', () => {
    expect(refusal('{\n  "currencies": [],\n  "products": [,]\n}', 'json')).toMatch(/^CATALOGUE_FILE catalogue\.yaml line 3: not valid JSON/);
  });
});

describe('the catalogue of a start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tvc-catalogue-'));

  it('production without CATALOGUE_FILE refuses, naming the variable', () => {
    expect(() => catalogueForStart({ mode: 'production', catalogueFile: null })).toThrow(ConfigError);
    expect(() => catalogueForStart({ mode: 'production', catalogueFile: null })).toThrow(/^CATALOGUE_FILE is not set/);
  });

  it('demo without CATALOGUE_FILE takes the demo file; with it, the operator\'s', () => {
    expect(catalogueForStart({ mode: 'demo', catalogueFile: null }).products).toHaveLength(7);
    const file = join(dir, 'mine.yml');
    writeFileSync(file, VALID);
    expect(catalogueForStart({ mode: 'demo', catalogueFile: file }).products.map((product) => product.pid)).toEqual([1, 7]);
    expect(catalogueForStart({ mode: 'production', catalogueFile: file }).products.map((product) => product.pid)).toEqual([1, 7]);
  });

  it('a file that cannot be read or is neither YAML nor JSON is refused', () => {
    expect(() => loadCatalogueFile(join(dir, 'absent.yaml'))).toThrow(/^CATALOGUE_FILE names .*absent\.yaml, which cannot be read \(ENOENT\)\.$/);
    const text = join(dir, 'catalogue.txt');
    writeFileSync(text, VALID);
    expect(() => loadCatalogueFile(text)).toThrow(/^CATALOGUE_FILE .*catalogue\.txt must be a \.yaml, \.yml or \.json file\.$/);
  });
});

describe("production and the demo's merchant pages", () => {
  it('refuses every link of the demo file to its placeholder pages, each with its line and field, and the missing fields with them', async () => {
    const { merchantProblems } = await import('../merchant');
    const demo = loadCatalogueFile(DEMO_CATALOGUE_FILE);
    const text = readFileSync(DEMO_CATALOGUE_FILE, 'utf8').split('\n');
    const lineOf = (field: string) => text.findIndex((line) => line.trimStart().startsWith(`${field}:`)) + 1;
    const problems = merchantProblems('production', demo);
    for (const field of ['logo', 'supportUrl', 'termsUrl', 'privacyUrl', 'refundUrl']) {
      expect(problems).toContain(`CATALOGUE_FILE ${demo.source} line ${lineOf(field)}: merchant.${field} ${demo.merchant[field as 'logo']} is a placeholder page of the demo, which production does not serve: link the shop's own page.`);
    }
    expect(problems).toHaveLength(5);
    expect(merchantProblems('demo', demo)).toEqual([]);
    const empty = parseCatalogue(VALID, 'yaml', 'shop.yaml');
    expect(merchantProblems('production', empty)).toEqual(['CATALOGUE_FILE shop.yaml has no merchant name, termsUrl, privacyUrl: production shows shoppers who sells and on what terms (README, "Catalogue file", merchant:).']);
  });
});
