/** Business constants of the checkout (spec section 9). */

/** A payment link stays valid for one day. */
export const PAYMENT_DEADLINE_MS = 24 * 60 * 60 * 1000;
/** Only the first products of the catalogue are offered on the checkout. */
export const MAX_CHECKOUT_PRODUCTS = 3;
/** Configurable option ids: the first is the extra connection, the second proxy protection. */
export const EXTRA_CONNECTION_OPTION_ID = 2;
export const PROXY_PROTECTION_OPTION_ID = 4;
/** Order status is polled this often while waiting. */
export const ORDER_POLL_INTERVAL_MS = 5_000;
/** Longest pause between polls after repeated errors. */
export const ORDER_POLL_MAX_BACKOFF_MS = 60_000;
/** How long the 'Copied!' hint stays. */
export const COPIED_HINT_MS = 2_500;
/** Loading states stay at least this long so nothing flickers. */
export const MIN_LOADING_MS = 200;
/** A failed chunk load reloads the page at most once in this window. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;
export const HTTP_TIMEOUT_MS = 30_000;
export const CHECKOUT_COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;
export const LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
/** The affiliate that brought this browser (spec: aff_id), kept 90 days; the server sets it when it records a new id's click. */
export const AFFILIATE_COOKIE = 'affiliate';
export const AFFILIATE_COOKIE_MAX_AGE_S = 90 * 24 * 60 * 60;
/** Upsell quantity bounds for extra connections. */
export const UPSELL_MIN_QUANTITY = 1;
export const UPSELL_MAX_QUANTITY = 10;
