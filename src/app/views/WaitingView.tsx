import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Actor, SnapshotFrom } from 'xstate';
import type { OrderStatusResult, WaitingEvent, WaitingGateway } from '../../../machines/waiting.context';
import { COUNTDOWN_TICK_MS, waitingMachine } from '../../../machines/waiting.machine';
import { waitingLogic } from '../actors/waiting';
import { onPageRestored } from '../browser';
import { CancelQuestion } from '../components/CancelQuestion';
import { Alert } from '../components/Feedback';
import { Notice } from '../components/Notice';
import { GatewayIcon } from '../components/Icons';
import { NothingToShow } from '../components/NothingToShow';
import { PageTitle } from '../components/PageTitle';
import { Receipt } from '../components/Receipt';
import { useLocaleTag } from '../format';
import { useApp, useHydrated, useMessage } from '../hooks';
import { localeParam, useLocale } from '../locale';
import type { PaymentFlow, SavedPayment } from '../persistence';
import { readPayment } from '../saved-payment';
import type { Gateways } from '../services';
import { statusKey } from '../status';

type WaitingActor = Actor<typeof waitingMachine>;
type WaitingSnapshot = SnapshotFrom<typeof waitingMachine>;

const waitingRoute = getRouteApi('/{-$locale}/waiting');
const resellerWaitingRoute = getRouteApi('/{-$locale}/resellers/waiting');

/** /waiting: the payment of an order or an upsell, resumed from the checkout cookie. */
export function WaitingView() {
  return <WaitingPage {...waitingRoute.useLoaderData()} />;
}

/** /resellers/waiting: the same step for a reseller order. */
export function ResellerWaitingView() {
  return <WaitingPage {...resellerWaitingRoute.useLoaderData()} />;
}

function WaitingPage({ gateways, status }: Gateways & { status: OrderStatusResult | null }) {
  const { t } = useTranslation();
  const app = useApp();
  const [saved] = useState(() => readPayment(app.store));
  const pending = saved && (saved.order.orderid !== null || saved.order.invoiceid !== null);
  return (
    <section className="page waiting">
      {pending ? (
        <Waiting saved={saved} gateways={gateways} status={status} />
      ) : (
        <>
          <PageTitle>{t('waiting.title')}</PageTitle>
          <NothingToShow message={t('waiting.none')} />
        </>
      )}
    </section>
  );
}

function Waiting({ saved, gateways, status }: { saved: SavedPayment; gateways: WaitingGateway[]; status: OrderStatusResult | null }) {
  const { t } = useTranslation();
  const message = useMessage();
  const app = useApp();
  const navigate = useNavigate();
  const locale = useLocale();
  const params = { locale: localeParam(locale) };
  const backHome = (
    <p>
      <Link to="/{-$locale}" params={params} className="button">
        {t('app.backHome')}
      </Link>
    </p>
  );
  const [logic] = useState(() =>
    waitingLogic(app, {
      goToSuccess: (serviceid, invoiceid) => {
        const search = { ...(serviceid ? { serviceid } : {}), ...(invoiceid ? { invoiceid } : {}) };
        void (saved.flow === 'reseller' ? navigate({ to: '/{-$locale}/resellers/success', params, search }) : navigate({ to: '/{-$locale}/success', params, search }));
      },
      goHome: () => void navigate({ to: '/{-$locale}', params, state: { orderCancelled: true } }),
    }),
  );
  const [input] = useState(() => ({
    order: saved.order,
    paymentLink: saved.link,
    lastDate: saved.lastDate,
    duration: saved.duration,
    gateways,
    selectedGateway: saved.gateway,
    // The server-rendered page's countdown: the first render shows the server's time, then the chart ticks.
    now: app.renderedAt ?? app.now(),
    // The status the server painted the page with: the chart opens on it, so hydration changes nothing on screen.
    status,
  }));
  const actor = useActorRef(logic, { input, inspect: app.inspect });
  useSavedPayment(actor, saved.flow);
  useEffect(() => onPageRestored(() => catchUp(actor)), [actor]);
  const snapshot = useSelector(actor, (current) => current);
  const { context } = snapshot;
  const title = <PageTitle>{t(titleKey(snapshot))}</PageTitle>;
  // "Keep my order" hands the focus back to the button that asked.
  const focusCancel = useRef(false);
  const cancelButton = useCallback((button: HTMLButtonElement | null) => {
    if (button && focusCancel.current) {
      focusCancel.current = false;
      button.focus();
    }
  }, []);

  if (snapshot.matches('success')) {
    return (
      <>
        {title}
        <Notice>
          <p>{t('waiting.paid')}</p>
        </Notice>
      </>
    );
  }
  if (snapshot.matches('latePayment')) {
    return (
      <>
        {title}
        <p className="banner warning" role="alert">
          {t('waiting.late', { invoice: context.order.invoiceid ?? '' })}
        </p>
        <p>{t('waiting.lateNext')}</p>
        <OrderInfo snapshot={snapshot} />
        <WaitingReceipt snapshot={snapshot} />
        {backHome}
      </>
    );
  }
  if (snapshot.matches('cancelled')) {
    return (
      <>
        {title}
        <p role="status">{t('waiting.cancelled')}</p>
        {backHome}
      </>
    );
  }
  if (snapshot.matches('fraud')) {
    return (
      <>
        {title}
        <p className="banner danger" role="alert">
          {t('waiting.fraud')}
        </p>
        <OrderInfo snapshot={snapshot} />
        <WaitingReceipt snapshot={snapshot} />
      </>
    );
  }

  const confirming = snapshot.matches({ watching: { payment: 'confirming' } });
  const declined = snapshot.matches({ watching: { payment: 'declined' } });
  // The deadline as the clock reads it: a link at 0:00:00 is as expired as one the countdown has left.
  const expired = !confirming && context.now >= context.lastDate;
  const renewing = snapshot.matches({ watching: { page: 'creatingLink' } }) && context.pendingGateway === context.selectedGateway;
  const changing = snapshot.matches({ watching: { page: 'choosingGateway' } }) || (snapshot.matches({ watching: { page: 'creatingLink' } }) && !renewing);
  const cancelling = snapshot.matches({ watching: { page: 'cancelling' } });
  const askingCancel = snapshot.matches({ watching: { page: 'confirmingCancel' } });
  const otherGateways = context.gateways.some((gateway) => gateway.module !== context.selectedGateway);
  const canRenew = declined || expired;
  return (
    <>
      {title}
      <OrderInfo snapshot={snapshot} />
      {confirming ? (
        <p className="banner" role="status">
          {t('waiting.confirming')}
        </p>
      ) : declined ? (
        <p className="banner danger" role="alert">
          {t('waiting.declined')}
        </p>
      ) : expired ? (
        <p className="banner warning" role="alert">
          {t('waiting.expired')}
        </p>
      ) : null}
      {!confirming && !expired && <Countdown remainingMs={context.remainingMs} progress={context.progress} lastDate={context.lastDate} />}
      {!confirming && !canRenew && context.paymentLink && (
        <p>
          <a className="button primary wide" href={context.paymentLink}>
            {t('waiting.pay')}
          </a>
        </p>
      )}
      <WaitingReceipt snapshot={snapshot} />
      {/* Only while a payment is awaited: confirming says so in its banner, an expired or declined link awaits a new one. */}
      {!confirming && !canRenew && <p className="hint">{t('waiting.polling')}</p>}
      {confirming ? null : changing ? (
        <GatewayChange actor={actor} snapshot={snapshot} />
      ) : askingCancel ? (
        <CancelQuestion
          orderid={context.order.orderid}
          onConfirm={() => actor.send({ type: 'cancel.confirm' })}
          onKeep={() => {
            focusCancel.current = true;
            actor.send({ type: 'cancel.keep' });
          }}
        />
      ) : cancelling || renewing ? (
        <Notice>
          <p>{t(cancelling ? 'waiting.cancelling' : 'waiting.creatingLink')}</p>
        </Notice>
      ) : (
        <>
          {context.error && <Alert>{message(context.error)}</Alert>}
          {canRenew && (
            <p>
              <button type="button" className="button primary wide" onClick={() => actor.send({ type: 'payment.renew' })}>
                {t(declined ? 'waiting.payAgain' : 'waiting.newLink')}
              </button>
            </p>
          )}
          <div className="actions">
            {otherGateways && (
              <button type="button" className="button secondary" onClick={() => actor.send({ type: 'gateway.change' })}>
                {t('waiting.changeGateway')}
              </button>
            )}
            {context.order.orderid !== null && (
              <button type="button" className="button link danger" ref={cancelButton} onClick={() => actor.send({ type: 'order.cancel' })}>
                {t('waiting.cancel')}
              </button>
            )}
          </div>
        </>
      )}
    </>
  );
}

/** The page's title for what the shopper is waiting for: under review, a declined or confirming payment, a late one. */
function titleKey(snapshot: WaitingSnapshot) {
  if (snapshot.matches('fraud')) return 'waiting.underReview' as const;
  if (snapshot.matches('latePayment')) return 'waiting.lateTitle' as const;
  if (snapshot.matches({ watching: { payment: 'confirming' } })) return 'waiting.confirmingTitle' as const;
  if (snapshot.matches({ watching: { payment: 'declined' } })) return 'waiting.declinedTitle' as const;
  return 'waiting.title' as const;
}

/**
 * Back from the payment page out of the back/forward cache, the chart's timers were frozen: its own poll and
 * tick fire now, so it reads the order's status and the clock at once instead of at the next interval.
 */
function catchUp(actor: WaitingActor) {
  actor.send({ type: `xstate.after.pollDelay.waitingPoll` } as unknown as WaitingEvent);
  actor.send({ type: `xstate.after.${COUNTDOWN_TICK_MS}.waitingCountdown` } as unknown as WaitingEvent);
}

/** Keeps the checkout cookie in step with the waiting actor, so a reload resumes the same countdown. */
function useSavedPayment(actor: WaitingActor, flow: PaymentFlow) {
  const { store } = useApp();
  useEffect(() => {
    let saved = '';
    const subscription = actor.subscribe((snapshot) => {
      const { order, paymentLink, selectedGateway, lastDate, duration } = snapshot.context;
      const payment = snapshot.matches('success') || snapshot.matches('cancelled') ? undefined : { flow, order, link: paymentLink, gateway: selectedGateway, lastDate, duration };
      const json = JSON.stringify(payment ?? null);
      if (json === saved) return;
      saved = json;
      store.update({ payment });
    });
    return () => subscription.unsubscribe();
  }, [actor, flow, store]);
}

/** The badge: the payment's state while it is what the shopper waits on (declined, confirming, expired), else the order's status. */
function badgeOf(snapshot: WaitingSnapshot, t: TFunction): { text: string; tone: string } {
  const { status, statusTone, now, lastDate } = snapshot.context;
  if (snapshot.matches({ watching: { payment: 'confirming' } })) return { text: t('waiting.paymentStatus.Confirming'), tone: 'warning' };
  if (snapshot.matches({ watching: { payment: 'declined' } })) return { text: t('waiting.paymentStatus.Declined'), tone: 'danger' };
  if (snapshot.matches('watching') && now >= lastDate) return { text: t('waiting.paymentStatus.Expired'), tone: 'muted' };
  const key = statusKey(status);
  return { text: key ? t(`status.${key}`) : status, tone: statusTone };
}

/** The receipt, once a status answer said what the invoice bills. */
function WaitingReceipt({ snapshot }: { snapshot: WaitingSnapshot }) {
  const { receipt, order, gateways } = snapshot.context;
  return receipt ? <Receipt receipt={receipt} invoiceid={order.invoiceid} gateways={gateways} /> : null;
}

function OrderInfo({ snapshot }: { snapshot: WaitingSnapshot }) {
  const { t } = useTranslation();
  const { order, gateways, selectedGateway } = snapshot.context;
  const gateway = gateways.find((candidate) => candidate.module === selectedGateway);
  const badge = badgeOf(snapshot, t);
  return (
    <dl className="facts">
      {order.orderid !== null && (
        <div>
          <dt>{t('waiting.order')}</dt>
          <dd>#{order.orderid}</dd>
        </div>
      )}
      {order.invoiceid !== null && (
        <div>
          <dt>{t('waiting.invoice')}</dt>
          <dd>#{order.invoiceid}</dd>
        </div>
      )}
      <div>
        <dt>{t('waiting.paymentMethod')}</dt>
        <dd>{gateway?.displayname ?? selectedGateway}</dd>
      </div>
      <div>
        <dt>{t('waiting.status')}</dt>
        <dd aria-live="polite">
          <span className={`badge ${badge.tone}`}>{badge.text}</span>
        </dd>
      </div>
    </dl>
  );
}

/** Time left, as digits and a bar; screen readers hear it at coarse steps, not every second. */
function Countdown({ remainingMs, progress, lastDate }: { remainingMs: number; progress: number; lastDate: number }) {
  const { t } = useTranslation();
  const tag = useLocaleTag();
  const labelId = useId();
  const minutes = Math.ceil(remainingMs / 60_000);
  const step = minutes > 60 ? 60 : minutes > 10 ? 5 : 1;
  const spoken = Math.ceil(minutes / step) * step;
  // The deadline reads in this browser's time zone, which the server's page cannot know: it fills in after hydration.
  const hydrated = useHydrated();
  return (
    <div className="countdown">
      <p className="label" id={labelId}>
        {t('waiting.timeLeft')}
      </p>
      <p className="timer" role="timer" aria-labelledby={labelId}>
        {formatCountdown(remainingMs)}
      </p>
      <progress max={1} value={progress} aria-labelledby={labelId} />
      <p className="hint">{t('waiting.deadline', { date: hydrated ? new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }).format(lastDate) : '…' })}</p>
      <p className="visually-hidden" aria-live="polite">
        {t('waiting.announce', { hours: Math.floor(spoken / 60), minutes: spoken % 60 })}
      </p>
    </div>
  );
}

/** The gateway-change view: one button per other gateway; picking one asks for a new link. */
function GatewayChange({ actor, snapshot }: { actor: WaitingActor; snapshot: WaitingSnapshot }) {
  const { t } = useTranslation();
  const message = useMessage();
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const { gateways, selectedGateway, error } = snapshot.context;
  const creating = snapshot.matches({ watching: { page: 'creatingLink' } });
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {t('waiting.chooseGateway')}
      </h2>
      <ul className="gateway-buttons">
        {gateways
          .filter((gateway) => gateway.module !== selectedGateway)
          .map((gateway) => (
            <li key={gateway.module}>
              <button type="button" className="button choice" aria-disabled={creating || undefined} onClick={() => actor.send({ type: 'gateway.select', gateway: gateway.module })}>
                <GatewayIcon type={gateway.type} />
                {t('waiting.payWith', { name: gateway.displayname })}
              </button>
            </li>
          ))}
      </ul>
      {creating && (
        <Notice>
          <p>{t('waiting.creatingLink')}</p>
        </Notice>
      )}
      {error && <Alert>{message(error)}</Alert>}
      {!creating && (
        <button type="button" className="button secondary" onClick={() => actor.send({ type: 'gateway.dismiss' })}>
          {t('waiting.keepGateway')}
        </button>
      )}
    </section>
  );
}

/** Time left as H:MM:SS (digits read the same in every locale). */
function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}
