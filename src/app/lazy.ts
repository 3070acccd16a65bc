import { lazyRouteComponent } from '@tanstack/react-router';
import { lazy, type ComponentType } from 'react';
import { CHUNK_RELOAD_GUARD_MS } from '../domain/constants';
import { reloadForNewDeploy } from './browser';

/** A view in a chunk of its own; a failed load (a deploy replaced the chunk) reloads the page, at most once a minute. */
export function lazyView<T extends Record<string, unknown>>(importer: () => Promise<T>, exportName: keyof T & string) {
  return lazyRouteComponent(() => importer().catch(reloadAfterFailedChunk), exportName);
}

/** A component in a chunk of its own that the router does not preload (the error pages), with the same reload guard. */
export function lazyComponent<P extends object>(importer: () => Promise<ComponentType<P>>) {
  return lazy(() => importer().then((component) => ({ default: component }), reloadAfterFailedChunk));
}

/** A chunk failed to load: reload the page (a new deploy), unless that was done less than a minute ago. */
export async function reloadAfterFailedChunk(error: unknown): Promise<never> {
  if (reloadForNewDeploy(CHUNK_RELOAD_GUARD_MS)) return new Promise<never>(() => {});
  // Reloaded less than a minute ago (or rendered on the server): show the error page (a wrapped error, so the router does not reload again).
  throw new Error('Chunk load failed', { cause: error });
}
