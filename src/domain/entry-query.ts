/**
 * The query a shopper's link may carry on entry (spec section 2), and the shapes each parameter must have:
 * the app validates the URL into it once, the checkout trusts it, and the server keys and records by the same shapes.
 */

/** A promo code or an affiliate id (the contract's AffiliateClickRequest.aff_id too). */
export const ENTRY_CODE = /^[\w-]{1,64}$/;
/** A product, order, service or invoice id. */
export const ENTRY_ID = /^[1-9]\d{0,9}$/;
/** An add-on toggle. */
export const ENTRY_FLAG = /^(true|false|1|0)$/;

/** The entry query, validated: every parameter present has its shape (a malformed one is dropped). */
export interface EntryQuery {
  promocode?: string;
  email?: string;
  /** A product id (ENTRY_ID's shape). */
  pid?: string;
  auto_redirect?: 'true' | 'false';
  extraconnect?: 'true' | 'false' | '1' | '0';
  proxyprotect?: 'true' | 'false' | '1' | '0';
  aff_id?: string;
}

/** The shape each entry parameter must have (the e-mail's shape is the checkout's to judge). */
export const ENTRY_SHAPES: Record<keyof EntryQuery, RegExp> = {
  promocode: ENTRY_CODE,
  email: /^.{1,254}$/,
  pid: ENTRY_ID,
  auto_redirect: /^(true|false)$/,
  extraconnect: ENTRY_FLAG,
  proxyprotect: ENTRY_FLAG,
  aff_id: ENTRY_CODE,
};

/** The entry parameters that change the index's first screen: the plan and the add-ons (the server's page cache is keyed by them). */
export const FIRST_SCREEN_ENTRY_KEYS = ['pid', 'extraconnect', 'proxyprotect'] as const satisfies readonly (keyof EntryQuery)[];

/** A query parameter as text, trimmed; a router that parsed `?pid=2` as a number gives it back as '2'. */
export const queryText = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined);

const isEntryKey = (key: string): key is keyof EntryQuery => Object.hasOwn(ENTRY_SHAPES, key);

/** The entry query of raw parameters (the URL, saved choices): only those of a known shape are kept, in their order. */
export function entryQuery(raw: Record<string, unknown>): EntryQuery {
  return Object.fromEntries(
    Object.entries(raw).flatMap(([key, given]) => {
      const value = queryText(given);
      return isEntryKey(key) && value !== undefined && ENTRY_SHAPES[key].test(value) ? [[key, value]] : [];
    }),
  );
}

/** True for an add-on flag that turns it on. */
export const isEntryFlagOn = (value: string | undefined) => value === 'true' || value === '1';
