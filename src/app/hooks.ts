import { rootRouteId, useRouteContext } from '@tanstack/react-router';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import type { AppServices } from './services';

/** The app's services, from the router context. */
export function useApp(): AppServices {
  return useRouteContext({ from: rootRouteId, select: (context) => context.app });
}

/** True while `active`, and at least `minMs` from when it became so, so a loading state never flickers. */
export function useMinimumDuration(active: boolean, minMs: number): boolean {
  const [holding, setHolding] = useState(active && minMs > 0);
  useEffect(() => {
    if (active && minMs > 0) setHolding(true);
  }, [active, minMs]);
  useEffect(() => {
    if (!holding) return undefined;
    const timer = setTimeout(() => setHolding(false), minMs);
    return () => clearTimeout(timer);
  }, [holding, minMs]);
  return active || holding;
}

/**
 * Translates what a machine keeps as a message: a message key (`email.invalid`, `api.price_changed`;
 * an API code without a translation reads as 'request.failed') or else a text as it came.
 */
export function useMessage(): (message: string) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (message: string) => {
      const key = `messages.${message}`;
      if (i18n.exists(key, { nsSeparator: false })) return t(key as ParseKeys);
      return message.startsWith('api.') ? t('messages.request.failed') : message;
    },
    [t, i18n],
  );
}

const subscribeToNothing = () => () => {};

/**
 * False in the server's render and while the browser hydrates it, true after: what only this browser
 * may see (the signed-in e-mail; the server's cached page is the same for everyone) renders after.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
