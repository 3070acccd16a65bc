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
