/**
 * The `checkout` cookie (30 days): what lets a reload or a return resume where the shopper was.
 * It is built from actor snapshots and holds no secret — no password, no service credentials.
 */
import type { WaitingOrder } from '../../machines/waiting.context';
import { CHECKOUT_COOKIE_MAX_AGE_S } from '../domain/constants';
import type { EntryQuery } from '../domain/entry-query';
import type { CookieJar } from './cookies';

export const CHECKOUT_COOKIE = 'checkout';

/** Which flow a payment belongs to: it decides how its status is read and where success leads. */
export type PaymentFlow = 'order' | 'upsell' | 'reseller' | 'renewal';

/** The payment in progress: the waiting step resumes from it, its countdown from `lastDate`. */
export interface SavedPayment {
  flow: PaymentFlow;
  order: WaitingOrder;
  link: string | null;
  gateway: string;
  /** Payment deadline, epoch milliseconds. */
  lastDate: number;
  /** Milliseconds the countdown spans. */
  duration: number;
}

/** The checkout form as the shopper left it, replayed as the checkout's query. */
export type SavedChoices = Pick<EntryQuery, 'pid' | 'extraconnect' | 'proxyprotect' | 'promocode' | 'email'>;

export interface SavedState {
  choices?: SavedChoices;
  payment?: SavedPayment;
}

/** Reads and writes the saved state; the app uses the cookie, tests may use memory. */
export interface SavedStateStore {
  /** The parts as stored, unchecked: the cookie is untrusted input, so each reader checks its part (readChoices, readPayment). */
  read(): { [Part in keyof SavedState]?: unknown };
  /** Replaces the given parts; a part set to undefined is removed. */
  update(change: SavedState): void;
  clear(): void;
}

/** The store kept in the `checkout` cookie. */
export function cookieStore(cookies: CookieJar): SavedStateStore {
  const read = () => {
    try {
      const saved: unknown = JSON.parse(cookies.read(CHECKOUT_COOKIE) ?? '{}');
      return isRecord(saved) ? saved : {};
    } catch {
      return {};
    }
  };
  return {
    read,
    update(change) {
      const parts = Object.entries({ ...read(), ...change }).filter(([, value]) => value !== undefined);
      if (parts.length === 0) cookies.delete(CHECKOUT_COOKIE);
      else cookies.write(CHECKOUT_COOKIE, JSON.stringify(Object.fromEntries(parts)), { maxAgeSeconds: CHECKOUT_COOKIE_MAX_AGE_S });
    },
    clear: () => cookies.delete(CHECKOUT_COOKIE),
  };
}

const CHOICE_KEYS: readonly string[] = ['pid', 'extraconnect', 'proxyprotect', 'promocode', 'email'];

/** The saved form choices, if well formed. */
export function readChoices(store: SavedStateStore): SavedChoices | undefined {
  const { choices } = store.read();
  const valid = isRecord(choices) && Object.entries(choices).every(([key, field]) => CHOICE_KEYS.includes(key) && typeof field === 'string' && field.length <= 254);
  return valid ? choices : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
