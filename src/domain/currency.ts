/** Currencies the catalogue is priced in. */
export const CURRENCIES = ['EUR', 'GBP'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** The country assumed when the connection tells none. */
export const DEFAULT_COUNTRY = 'MA';

/** GBP for visitors from Great Britain, EUR for everyone else. */
export function currencyForCountry(country: string | null | undefined): Currency {
  return (country ?? DEFAULT_COUNTRY).toUpperCase() === 'GB' ? 'GBP' : 'EUR';
}

/** True for a currency code the catalogue is priced in. */
export function isCurrency(value: string): value is Currency {
  return (CURRENCIES as readonly string[]).includes(value);
}

/** Units of each currency per unit of the default currency (the default's own rate is 1). */
export type CurrencyRates = Record<Currency, number>;

/** A currency as the billing system keeps it (WHMCS GetCurrencies: code, rate, default). */
export interface CurrencyRate {
  code: Currency;
  /** Units of this currency per unit of the default currency. */
  rate: number;
  isDefault: boolean;
}

/**
 * The rate of every currency the catalogue is priced in. A store without one cannot convert the
 * amounts kept in the default currency, so a missing or unusable rate is an error, never a guess.
 */
export function currencyRates(currencies: readonly CurrencyRate[]): CurrencyRates {
  const rate = (code: Currency) => {
    const found = currencies.find((currency) => currency.code === code)?.rate;
    if (found === undefined || !Number.isFinite(found) || found <= 0) throw new Error(`The store has no usable rate for ${code}.`);
    return found;
  };
  return Object.fromEntries(CURRENCIES.map((code) => [code, rate(code)])) as CurrencyRates;
}
