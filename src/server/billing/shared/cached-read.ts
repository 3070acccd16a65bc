import type { Clock } from '../../clock';

/**
 * The catalogue and the currency rates are read on every page and change rarely: each is kept for
 * `catalogueTtlMs`, one load at a time; a failed load is forgotten at once.
 */
export function cachedRead<T>(context: { catalogueTtlMs: number; clock: Clock }, read: () => Promise<T>): () => Promise<T> {
  let entry: { loaded: Promise<T>; expires: number } | null = null;
  return () => {
    const now = context.clock.now().getTime();
    if (!entry || entry.expires <= now) {
      const loaded = read();
      const current = { loaded, expires: now + context.catalogueTtlMs };
      entry = current;
      loaded.catch(() => { if (entry === current) entry = null; });
    }
    return entry.loaded;
  };
}
