import type { PromotionRefusal } from './promotion';

/**
 * Message keys the machines emit; views translate them. The en-en texts are the spec's words.
 */
export const MESSAGE_TEXTS = {
  'email.invalid': 'Please enter a Valid Email.',
  'reseller.passwordMismatch': 'Not the same password',
  'reseller.passwordTooShort': 'Choose a password of at least 10 characters.',
  'reseller.passwordIsEmail': 'Choose a password that is not your e-mail address.',
  'promo.notApplicable': 'This Coupon is not available for this product.',
  'promo.notStarted': 'This Coupon is not valid yet.',
  'promo.expired': 'This Coupon has expired.',
  'promo.exhausted': 'This Coupon has been used up.',
  'device.invalid': 'Please enter a valid device address, like 00:1A:79:12:34:56.',
  'copy.done': 'Copied!',
  'request.failed': 'Something went wrong. Please try again.',
} as const;

export type MessageKey = keyof typeof MESSAGE_TEXTS;

/** The message key of a promotion refusal. */
export function promotionRefusalMessage(refusal: PromotionRefusal): MessageKey {
  return `promo.${refusal}` as const;
}
