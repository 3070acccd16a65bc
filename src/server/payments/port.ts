/** A payment gateway as the checkout sees it: a hosted payment page and signed webhooks. */
export interface PaymentGateway {
  module: string;
  displayname: string;
  /** Gateway type as the billing system names it (CreditCard, Bitcoin, …); decides card or coin. */
  type: 'CreditCard' | 'highriskshop' | 'laucharge' | 'mercuryo' | 'Bitcoin' | 'Cryptocurrency';
  /** The hosted page where the shopper pays this payment. */
  paymentUrl(paymentId: string): string;
  /** The secret webhooks of this gateway are signed with. */
  webhookSecret: string;
}
