/** The verdict on a visitor before an order: not valid means the order is flagged as fraud. */
export interface FraudVerdict {
  valid: boolean;
  reasons: string[];
}

/** A fraud check: local rules by default; a provider could implement it too. */
export interface FraudPort {
  assess(visitor: { ip: string; country: string }): Promise<FraudVerdict>;
}
