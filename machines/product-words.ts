/** The plain-language words a product owner reads on every state and transition of the charts (their `meta`). */
export interface ProductWords {
  /** One English sentence of at most 120 characters: what the shopper sees or what happens for them, without code names. */
  product: string;
}
