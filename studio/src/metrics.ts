/** Text metrics the layout reserves room by and the diagram draws with (styles.css keeps the font sizes). */
export interface TextMetrics {
  /** Average width of a character of a state's name, and of an edge label's. */
  titleChar: number;
  smallChar: number;
  lineHeight: number;
  titleHeight: number;
  padding: number;
  /** Room left of a compound's children for the initial-state marker. */
  initialGutter: number;
  /** Baseline of an edge label's first line below the label's top. */
  labelBaseline: number;
}

/** The engineer view: .state-title 13px, .invoke and edge labels 11px. */
export const ENGINEER_METRICS: TextMetrics = { titleChar: 7.6, smallChar: 6.4, lineHeight: 15, titleHeight: 30, padding: 14, initialGutter: 22, labelBaseline: 11 };

/** The product view: names 16px, edge labels 14px, so that a view drawn at 0.86 or more still reads at 12px. */
export const PRODUCT_METRICS: TextMetrics = { titleChar: 9.4, smallChar: 8.2, lineHeight: 18, titleHeight: 34, padding: 14, initialGutter: 22, labelBaseline: 14 };

/** The smallest font of the product view, in px (edge labels). */
export const PRODUCT_SMALLEST_FONT = 14;

/** The product view's diagram frame on a 1280 × 800 window (the diagram spans the page; panels go below it). */
export const VIEW_FRAME = { width: 1230, height: 640 } as const;
