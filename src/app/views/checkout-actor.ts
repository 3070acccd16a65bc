import { useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { Actor, ActorRefFrom, SnapshotFrom } from 'xstate';
import type { AutoOrderStop, checkoutMachine, CheckoutInput, CheckoutPreload, CheckoutUser } from '../../../machines/checkout.machine';
import type { placeOrderMachine } from '../../../machines/place-order.machine';
import { checkoutLogic, choicesOf, savedOrderOf } from '../actors/checkout';
import { AFFILIATE_COOKIE } from '../../domain/constants';
import { entryQuery, type EntryQuery } from '../../domain/entry-query';
import { useApp } from '../hooks';
import { readChoices, type SavedChoices } from '../persistence';
import { whenIdle } from '../format';
import { onPageHide } from '../browser';
import { localeParam, useLocale } from '../locale';
import type { AppServices } from '../services';

/**
 * Who orders: undefined while the session settles (e.g. the automatic login of an `email` link),
 * null for a guest, else the logged-in user (a client, or a guest identified by e-mail).
 */
export function useCheckoutUser(): CheckoutUser | null | undefined {
  const { auth } = useApp().session;
  const settled = useSelector(auth, (snapshot) => !snapshot.matches('starting') && !snapshot.matches('identifyingGuest'));
  const userid = useSelector(auth, (snapshot) => (snapshot.matches('loggedIn') || snapshot.matches('signingOut') ? (snapshot.context.user?.userid ?? null) : null));
  const email = useSelector(auth, (snapshot) => snapshot.context.user?.email ?? '');
  if (!settled) return undefined;
  return userid === null ? null : { userid, email };
}

/** The checkout actor of a view: the real machine with the app's actors, its form choices saved as they change. */
export function useCheckoutActor(search: EntryQuery, user: CheckoutUser | null, autoOrderStop: AutoOrderStop | null = null, preloaded: CheckoutPreload | null = null) {
  const app = useApp();
  const navigate = useNavigate();
  const locale = useLocale();
  const [logic] = useState(() => checkoutLogic(app, { goToWaiting: () => void navigate({ to: '/{-$locale}/waiting', params: { locale: localeParam(locale) } }) }));
  const [input] = useState(() => ({ ...checkoutInput(app, search, user, autoOrderStop), preloaded }));
  const actor = useActorRef(logic, { input, inspect: app.inspect });

  useEffect(() => {
    let saved = '';
    // The cookie is written when the page is idle, not in the keystroke's own task (reading and writing document.cookie
    // took about 4 ms a keystroke at 4× slowed CPU); the latest choices are written before the page goes.
    let pending: { choices: SavedChoices | undefined } | null = null;
    let cancel: (() => void) | null = null;
    const write = () => {
      cancel = null;
      if (pending) app.store.update(pending);
      pending = null;
    };
    const subscription = actor.subscribe((snapshot) => {
      if (!snapshot.matches('ready')) return;
      const choices = choicesOf(snapshot.context);
      const json = JSON.stringify(choices);
      if (json === saved) return;
      saved = json;
      pending = { choices: json === '{}' ? undefined : choices };
      // One write is enough for a burst of keystrokes: it takes the latest choices.
      cancel ??= whenIdle(write);
    });
    const leaving = onPageHide(write);
    return () => {
      subscription.unsubscribe();
      leaving();
      cancel?.();
      write();
    };
  }, [actor, app]);

  return { actor };
}

type PlaceOrderActor = ActorRefFrom<typeof placeOrderMachine>;

/** The checkout's placeOrder child while an order is placed (its ref and snapshot), else undefined. */
export function usePlaceOrder(actor: Actor<typeof checkoutMachine>): { placeOrder: PlaceOrderActor; snapshot: SnapshotFrom<typeof placeOrderMachine> } | undefined {
  const placeOrder = useSelector(actor, (snapshot) => snapshot.children.placeOrder as PlaceOrderActor | undefined);
  const subscribe = useCallback(
    (listener: () => void) => {
      const subscription = placeOrder?.subscribe(listener);
      return () => subscription?.unsubscribe();
    },
    [placeOrder],
  );
  const read = () => placeOrder?.getSnapshot();
  // The server's render and the hydration read it the same way (no order is being placed then).
  const snapshot = useSyncExternalStore(subscribe, read, read);
  return placeOrder && snapshot ? { placeOrder, snapshot } : undefined;
}

/**
 * The URL's entry parameters over the saved choices (not for an automatic order, which uses the URL alone),
 * the saved order to offer (not to an automatic order either) and why a link's automatic order stopped.
 */
function checkoutInput(app: AppServices, search: EntryQuery, user: CheckoutUser | null, autoOrderStop: AutoOrderStop | null): CheckoutInput {
  const automatic = search.auto_redirect === 'true';
  const saved = automatic ? {} : (readChoices(app.store) ?? {});
  // The affiliate of the URL, else the one that brought this browser within 90 days.
  const affId = search.aff_id ?? app.cookies.read(AFFILIATE_COOKIE);
  return {
    // The saved choices and the affiliate cookie are untrusted too: the whole query is validated as the URL's is.
    query: entryQuery({ ...saved, ...search, ...(affId ? { aff_id: affId } : {}) }),
    user,
    now: app.now,
    savedOrder: automatic ? null : savedOrderOf(app),
    autoOrderStop,
  };
}
