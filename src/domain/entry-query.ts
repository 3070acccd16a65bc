/** The shapes a shopper's link may give its entry parameters (spec section 2): the app reads them, the server keys and records by them. */

/** A promo code or an affiliate id (the contract's AffiliateClickRequest.aff_id too). */
export const ENTRY_CODE = /^[\w-]{1,64}$/;
/** A product, order, service or invoice id. */
export const ENTRY_ID = /^[1-9]\d{0,9}$/;
/** An add-on toggle. */
export const ENTRY_FLAG = /^(true|false|1|0)$/;
