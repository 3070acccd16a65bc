/** What the catalogue file may add to how plans and payment methods are shown (never to what they cost). */

/** The words a plan's card may carry to single it out. */
export const PLAN_BADGES = ['popular'] as const;
export type PlanBadge = (typeof PLAN_BADGES)[number];

/** The marks of what a payment method takes, each drawn by a local SVG and named by its brand. */
export const PAYMENT_MARKS = ['visa', 'mastercard', 'applepay', 'googlepay', 'bitcoin', 'usdc'] as const;
export type PaymentMark = (typeof PAYMENT_MARKS)[number];

/** A mark's accessible name: the brand as its owner writes it (the same in every locale). */
export const PAYMENT_MARK_NAMES: Record<PaymentMark, string> = {
  visa: 'Visa', mastercard: 'Mastercard', applepay: 'Apple Pay', googlepay: 'Google Pay', bitcoin: 'Bitcoin', usdc: 'USDC',
};
