/** How WHMCS reads posted values and writes money, dates and cycles; every action shares these. */
import { CYCLE_KEYS, type CycleKey } from './seed';

export type Params = Record<string, string>;
export type Answer = Record<string, unknown>;
/** A business refusal: the front answers it as `{"result":"error","message":…}` with HTTP 200. */
export class ApiError extends Error {}
/** The actions by lower-case name. */
export type Actions = Record<string, (params: Params) => Answer>;

/** `pid[0]=1&pid[1]=2` or `pid[]=1&pid[]=2` (or a lone `pid=1`) as a list, in index order. */
export function listParam(params: Params, name: string): string[] {
  const indexed: [number, string][] = [];
  let appended = 0;
  for (const [key, value] of Object.entries(params)) {
    if (key === `${name}[]`) indexed.push([1e9 + appended++, value]);
    const match = key.startsWith(`${name}[`) ? /^\[(\d+)\]$/.exec(key.slice(name.length)) : null;
    if (match) indexed.push([Number(match[1]), value]);
  }
  if (indexed.length === 0 && params[name] !== undefined) return [params[name]];
  return indexed.sort((a, b) => a[0] - b[0]).map(([, value]) => value);
}

/** PHP truthiness of a posted string: "", "0" and absence are false; everything else, "false" included, is true. */
export const phpTruthy = (value: string | undefined) => value !== undefined && value !== '' && value !== '0';

export const toCents = (money: string | number) => Math.round(Number(money) * 100);
export const money = (cents: number) => (cents / 100).toFixed(2);
export const WHMCS_CYCLE_NAMES: Record<string, string> = {
  onetime: 'One Time', monthly: 'Monthly', quarterly: 'Quarterly', semiannually: 'Semi-Annually', annually: 'Annually',
  biennially: 'Biennially', triennially: 'Triennially', free: 'Free Account',
};
export const CYCLE_MONTHS: Record<string, number> = { Monthly: 1, Quarterly: 3, 'Semi-Annually': 6, Annually: 12, Biennially: 24, Triennially: 36 };
export const pricingKeyOf = (cycle: string): CycleKey | null => {
  const key = cycle.replace(/[-\s]/g, '').toLowerCase();
  if (key === 'onetime') return 'monthly';
  return (CYCLE_KEYS as readonly string[]).includes(key) ? (key as CycleKey) : null;
};
export const nowStamp = () => new Date().toISOString().replace('T', ' ').slice(0, 19);
export const localDate = () => {
  const date = new Date();
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};
export const addMonths = (iso: string, months: number) => {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
};
export const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** A comma-separated list (a promotion's products and cycles, GetProducts' `pid`), blanks dropped. */
export const tokens = (list: string) => list.split(',').map((token) => token.trim()).filter(Boolean);

/** MySQL `LIKE` (case-insensitive collation, backslash escape): `%` any run, `_` one character. */
export function sqlLike(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '\\' && index + 1 < pattern.length) source += (pattern[++index] as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (char === '%') source += '.*';
    else if (char === '_') source += '.';
    else source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'is');
}
