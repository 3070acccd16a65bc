/** Money is carried as numbers of the currency unit and always rounded to 2 decimals. */

/** Rounds an amount to 2 decimals, half away from zero. */
export function roundMoney(amount: number): number {
  return Math.sign(amount) * Math.round(Math.abs(amount) * 100 + 1e-9) / 100;
}

/** Whole cents of an amount, for exact comparison. */
export function toCents(amount: number): number {
  return Math.round(roundMoney(amount) * 100);
}

/** True when two amounts are the same to the cent. */
export function sameAmount(a: number, b: number): boolean {
  return toCents(a) === toCents(b);
}

/** Sums amounts without float drift. */
export function sumMoney(...amounts: number[]): number {
  return amounts.reduce((total, amount) => total + toCents(amount), 0) / 100;
}
