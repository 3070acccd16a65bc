/** Query parameters, validated: the URL is untrusted input, so anything malformed is dropped. */
import { ENTRY_CODE, ENTRY_FLAG, ENTRY_ID } from '../domain/entry-query';

/** What a shopper's link may carry on entry (spec section 2). */
export interface EntrySearch {
  promocode?: string;
  email?: string;
  pid?: string;
  auto_redirect?: 'true' | 'false';
  extraconnect?: 'true' | 'false' | '1' | '0';
  proxyprotect?: 'true' | 'false' | '1' | '0';
  aff_id?: string;
}

/** The service a success page is about, and the invoice whose receipt it shows. */
export interface ServiceSearch {
  serviceid?: number;
  invoiceid?: number;
}

/** The shape each entry parameter must have (the e-mail's shape is the checkout's to judge). */
const ENTRY_SHAPES: Record<keyof EntrySearch, RegExp> = {
  promocode: ENTRY_CODE,
  email: /^.{1,254}$/,
  pid: ENTRY_ID,
  auto_redirect: /^(true|false)$/,
  extraconnect: ENTRY_FLAG,
  proxyprotect: ENTRY_FLAG,
  aff_id: ENTRY_CODE,
};

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined);

/** Keeps only the entry parameters of a known shape. */
export function entrySearch(search: Record<string, unknown>): EntrySearch {
  return Object.fromEntries(
    Object.entries(ENTRY_SHAPES).flatMap(([key, shape]) => {
      const value = text(search[key]);
      return value !== undefined && shape.test(value) ? [[key, value]] : [];
    }),
  );
}

/** Keeps a positive integer `serviceid` and `invoiceid`. */
export function serviceSearch(search: Record<string, unknown>): ServiceSearch {
  const id = (key: 'serviceid' | 'invoiceid') => {
    const value = text(search[key]);
    return value !== undefined && ENTRY_ID.test(value) ? { [key]: Number(value) } : {};
  };
  return { ...id('serviceid'), ...id('invoiceid') };
}

/** Plain query strings, without JSON: `?pid=2` stays the string '2'. */
export function parseSearch(query: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(query));
}

export function stringifySearch(search: Record<string, unknown>): string {
  const pairs = Object.entries(search).flatMap(([key, value]) => (value === undefined || value === null ? [] : [[key, String(value)]]));
  const query = new URLSearchParams(pairs).toString();
  return query ? `?${query}` : '';
}
