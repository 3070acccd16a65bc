/** Query parameters, validated: the URL is untrusted input, so anything malformed is dropped (the entry query's own: src/domain/entry-query.ts). */
import { ENTRY_ID, queryText } from '../domain/entry-query';

/** The service a success page is about, and the invoice whose receipt it shows. */
export interface ServiceSearch {
  serviceid?: number;
  invoiceid?: number;
}

/** Keeps a positive integer `serviceid` and `invoiceid`. */
export function serviceSearch(search: Record<string, unknown>): ServiceSearch {
  const id = (key: 'serviceid' | 'invoiceid') => {
    const value = queryText(search[key]);
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
