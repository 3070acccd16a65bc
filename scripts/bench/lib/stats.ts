/** Small statistics and formatting helpers of the benchmark; pure, so they have tests of their own. */

/** The median of a list of numbers (the mean of the two middle ones for an even count); NaN for an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The median of the pairwise differences a[i] − b[i] (e.g. each run's LCP − FCP): a figure of one run each
 * time, unlike the difference of two medians, which may come from different runs. NaN for no pairs.
 */
export function medianOfDifferences(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`medianOfDifferences: ${a.length} values against ${b.length}`);
  return median(a.map((value, index) => value - (b[index] as number)));
}

/** The p-th percentile (0 < p ≤ 100) by the nearest-rank method: a value that was actually observed. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/** Bytes as kB (1 kB = 1000 bytes), one decimal. */
export const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

/** Milliseconds with a precision that suits their size. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 100) return `${Math.round(value)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

/** Seconds with one decimal. */
export const seconds = (valueMs: number): string => `${(valueMs / 1000).toFixed(1)} s`;

/** KiB, as /proc reports them, shown as MiB (as `ps` and `top` count). */
export const mib = (kib: number): string => `${(kib / 1024).toFixed(0)} MiB`;

/** A ratio as `1.23×`. */
export const ratio = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');
