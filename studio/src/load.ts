import { useEffect, useState } from 'react';
import type { MachineData, StudioIndex } from './data';

const cache = new Map<string, Promise<unknown>>();

/** Fetches one file of build/studio/data once (relative URL: the site works from any folder). */
export function loadJson<T>(file: string): Promise<T> {
  if (!cache.has(file)) {
    cache.set(
      file,
      fetch(`data/${file}`).then((response) => {
        if (!response.ok) throw new Error(`data/${file}: HTTP ${response.status}`);
        return response.json();
      }),
    );
  }
  return cache.get(file) as Promise<T>;
}

export const loadIndex = () => loadJson<StudioIndex>('index.json');
export const loadMachine = (name: string) => loadJson<MachineData>(`${name}.json`);

/** The value of a promise once it settles (null meanwhile), or its error. */
export function useLoaded<T>(load: () => Promise<T>, key: string): { value: T | null; error: string | null } {
  const [result, setResult] = useState<{ key: string; value: T | null; error: string | null }>({ key, value: null, error: null });
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && setResult({ key, value, error: null }),
      (error: unknown) => current && setResult({ key, value: null, error: String(error) }),
    );
    return () => {
      current = false;
    };
    // The key names what is loaded; `load` is a fresh closure on every render.
  }, [key]);
  return result.key === key ? result : { value: null, error: null };
}
