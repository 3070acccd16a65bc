/**
 * What the shopper reads, as literal facts: the spec's English word for word
 * (/work/shared/spec/checkout-spec.md §5, §8), then the app's own texts for what the spec leaves unsaid
 * (README and issues 10-15), written out here rather than read from src/i18n, so a view that shows
 * another text (or the locale file's text changing) fails the walks.
 */

/** The spec's texts, word for word. */
export const SPEC_MESSAGES = {
  /** §5: the e-mail must have the shape text@text.text. */
  invalidEmail: 'Please enter a Valid Email.',
  /** §5: the reseller's password confirmation must match. */
  passwordMismatch: 'Not the same password',
  /** §5: a promo code whose appliesto list lacks the plan. */
  couponNotForProduct: 'This Coupon is not available for this product.',
  /** §8: an unmatched page. */
  pageNotFound: 'This page could not be found',
  /** §2: the hint beside a copied value. */
  copied: 'Copied!',
} as const;

/** The app's texts where the spec shows none (a failed call, the server's refusals, the waiting page's notices). */
export const APP_MESSAGES = {
  requestFailed: 'Something went wrong. Please try again.',
  promotionNotFound: 'This Coupon does not exist.',
  priceChanged: 'The price has changed.',
  rateLimited: 'Too many attempts. Please wait a minute and try again.',
  invalidCredentials: 'Email or Password Invalid',
  /** Issue 16 item 10: a new reseller's password has at least 10 characters and is not the e-mail. */
  passwordTooShort: 'Choose a password of at least 10 characters.',
  passwordIsEmail: 'Choose a password that is not your e-mail address.',
  invoicePaid: 'This invoice is already paid.',
  orderNotPending: 'This order can no longer be changed.',
  /** Hardening item 3: a flagged order stays in the operator's fraud queue; the shopper's cancel is refused (409). */
  orderUnderReview: 'This order is under review and cannot be cancelled. We will contact you by e-mail.',
  forbidden: 'This belongs to another account.',
  notFound: 'We could not find what you asked for.',
  deviceInvalid: 'Please enter a valid device address, like 00:1A:79:12:34:56.',
  deviceSaved: 'Device address saved.',
  linkSent: 'If an account exists for this address, we have sent it a sign-in link. It works once, for 15 minutes.',
  /** The fraud banner (the spec shows a banner without its text). */
  fraudReview: 'Your order needs a manual review. We will contact you by e-mail.',
  paymentExpired: 'This payment link has expired. Get a new payment link or choose another payment method.',
  paymentDeclined: 'Your payment was declined and no money was taken. Pay again, or choose another payment method.',
  paymentConfirming: 'Payment received, confirming. This can take a while; this page updates by itself when it is confirmed.',
  orderCancelled: 'Your order was cancelled.',
} as const;

/** The checkout's offer after the server answered 409 price_changed with its own total (amounts as the page writes them). */
export const priceChangedOffer = (amount: string, previous: string) => `The price has changed: the total is now ${amount} instead of ${previous}.`;
export const confirmPrice = (amount: string) => `Confirm ${amount} and pay`;

/** The discount box's notice once a code is applied. */
export const discountApplied = (code: string) => `Code ${code} applied.`;

/** The waiting page's notice for a payment that came after the order closed. */
export const latePayment = (invoiceid: number) => `We received a payment after this order closed; we will refund or apply it — contact support with invoice #${invoiceid}.`;
/** What the shop does next with a payment that came after the order closed (hardening issue: activation or refund by the operator; no second payment). */
export const LATE_PAYMENT_NEXT = 'You do not need to pay again: the shop will either activate your order or refund your payment.';

/** What the upsell's price covers on a service with a due date: the days left, until the day written as en-en's Intl does ('Dec 21, 2026'). */
export const upsellProrated = (days: number, until: string) => `for the ${days} days left of this period (until ${until})`;

/** The upsell's price box when the service's extra connections have no price in the visitor's currency. */
export const upsellNotSold = (currency: string) => `Extra connections for this service cannot be bought in ${currency}.`;

/** The reseller form's note for a new reseller, with the panel activation's price as the page writes it. */
export const panelActivationNote = (price: string) => `New resellers also get their reseller panel activated (${price}).`;

/**
 * The payment links the walks' fake API serves, one per flow: a link on a page must be one of these,
 * exactly (the machine may not rewrite, drop or swap it).
 */
export const PAYMENT_LINKS = {
  /** Checkout: createOrder's link for order 501 / invoice 601. */
  checkout: 'https://pay.example/601',
  /** Upsell: createInvoice's link for invoice 501. */
  upsell: 'https://pay.example/card/501',
  /** Renewal: createPaymentLink's link for renewal invoice 2007. */
  renewal: 'https://pay.example/card/2007',
  /** Reseller: createOrder's link for order 601 / invoice 701. */
  reseller: 'https://pay.example/card/701',
  /** Waiting: the link of invoice 201 the page resumes with, and the new links createPaymentLink gives (same card gateway, crypto). */
  waiting: 'https://pay.example/card/201',
  waitingRenewed: 'https://pay.example/card/201-renewed',
  waitingCrypto: 'https://pay.example/crypto/201',
} as const;
