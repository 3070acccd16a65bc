import { getRouteApi, Link, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { memo, Suspense, useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Actor, SnapshotFrom } from 'xstate';
import { checkoutMachine, selectedProduct, type AutoOrderStop, type CheckoutOption, type CheckoutPreload, type CheckoutUser } from '../../../machines/checkout.machine';
import { EXTRA_CONNECTION_OPTION_ID, PROXY_PROTECTION_OPTION_ID } from '../../domain/constants';
import type { Currency } from '../../domain/currency';
import type { EntryQuery } from '../../domain/entry-query';
import { cycleMonths } from '../../domain/billing-cycle';
import { compareWithMonthly, monthlyPlanOf, priceFor } from '../../domain/pricing';
import { onPageRestored } from '../browser';
import { GatewayPicker, PlanPicker } from '../components/Choices';
import { Alert, Loading } from '../components/Feedback';
import { Field } from '../components/Field';
import { OrderSummary, usePaymentNote } from '../components/OrderSummary';
import { PageTitle } from '../components/PageTitle';
import { cycleKey, useFormat, whenIdle } from '../format';
import { useApp, useHydrated, useMessage, useMinimumDuration } from '../hooks';
import { lazyComponent } from '../lazy';
import { localeParam, useLocale } from '../locale';
import { useCheckoutActor, useCheckoutUser, usePlaceOrder } from './checkout-actor';

const route = getRouteApi('/{-$locale}/');

// Parts most shoppers never see load when they are needed.
const LoginPanel = lazyComponent(() => import('../components/LoginPanel').then((module) => module.LoginPanel));
const PriceChanged = lazyComponent(() => import('../components/PriceChanged').then((module) => module.PriceChanged));
const OrderNotice = lazyComponent(() => import('../components/OrderNotice').then((module) => module.OrderNotice));
const UnpaidOrder = lazyComponent(() => import('../components/UnpaidOrder').then((module) => module.UnpaidOrder));

type CheckoutActor = Actor<typeof checkoutMachine>;
type CheckoutSnapshot = SnapshotFrom<typeof checkoutMachine>;

/** The index: plan, add-ons, discount, e-mail, payment method, total and the validate button. */
export function CheckoutView() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const app = useApp();
  // The server's data is for the locale it rendered: a language switch re-keys the form before the loader reruns, and the chart then loads its own.
  const loaded = route.useLoaderData();
  const preloaded = loaded && loaded.locale === app.catalogueLocale() ? loaded.preload : null;
  const user = useCheckoutUser();
  const locale = useLocale();
  const [attempt, setAttempt] = useState(0);
  const { auth } = app.session;
  const canLogIn = useSelector(auth, (snapshot) => snapshot.matches('loggedOut') || snapshot.matches('loggingIn') || snapshot.matches('requestingLink') || snapshot.matches('linkSent'));
  const isClient = useSelector(auth, (snapshot) => snapshot.matches('loggedIn') && snapshot.context.user?.guest === false);
  // The waiting page sends the shopper here after a cancel; the notice goes with that history entry.
  const orderCancelled = useRouterState({ select: (state) => state.location.state.orderCancelled === true });
  // A link's automatic order that stopped lands here with its reason.
  const autoOrderStop = useRouterState({ select: (state) => state.location.state.autoOrderStop ?? null });
  // Below the order: shown with it, not under its placeholder, which the order then would push down.
  const links = (
    <p className="links">
      {isClient && (
        <Link to="/{-$locale}/upsell" params={{ locale: localeParam(locale) }}>
          {t('checkout.upsellLink')}
        </Link>
      )}
      <Link to="/{-$locale}/resellers" params={{ locale: localeParam(locale) }}>
        {t('checkout.resellerLink')}
      </Link>
    </p>
  );
  return (
    <section className="page checkout two-pane">
      <PageTitle>{t('checkout.title')}</PageTitle>
      <p className="lead">{t('checkout.intro')}</p>
      {orderCancelled && (
        <p className="panel" role="status">
          {t('waiting.cancelled')}
        </p>
      )}
      {canLogIn && <LoginDisclosure />}
      {user === undefined ? (
        <Loading lines={5} />
      ) : (
        // A new user, locale or retry starts a new order (the saved choices carry the form over).
        <Checkout key={`${locale}:${user?.userid ?? 'guest'}:${attempt}`} search={search} preloaded={preloaded} user={user} autoOrderStop={autoOrderStop} links={links} onRetry={() => setAttempt(attempt + 1)} />
      )}
    </section>
  );
}

function LoginDisclosure() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <details className="panel login-disclosure" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{t('login.title')}</summary>
      {open && (
        <Suspense fallback={<Loading lines={2} />}>
          <LoginPanel />
        </Suspense>
      )}
    </details>
  );
}

interface CheckoutProps {
  search: EntryQuery;
  preloaded: CheckoutPreload | null;
  user: CheckoutUser | null;
  autoOrderStop: AutoOrderStop | null;
  links: ReactNode;
  onRetry: () => void;
}

function Checkout({ search, preloaded, user, autoOrderStop, links, onRetry }: CheckoutProps) {
  const { t } = useTranslation();
  const { minLoadingMs } = useApp();
  const { actor } = useCheckoutActor(search, user, autoOrderStop, preloaded);
  const snapshot = useSelector(actor, (current) => current);
  // Back from the payment page out of the back/forward cache: a chart that handed the order over starts again and reads the saved order.
  useEffect(() => onPageRestored(() => actor.getSnapshot().status === 'done' && onRetry()), [actor, onRetry]);
  // The order form is the first screen's biggest render: it comes in a deferred render, which React
  // does in slices, so the page keeps answering meanwhile. The saved order is checked before it.
  const loading = useDeferredValue(useMinimumDuration(snapshot.matches('loading') || snapshot.matches('checkingSavedOrder') || snapshot.matches('resumingOrder'), minLoadingMs));
  const { prepare } = useFormat();
  useEffect(() => (loading ? whenIdle(() => prepare(snapshot.context.currency)) : undefined), [loading, prepare, snapshot.context.currency]);

  if (loading) return <Loading lines={5} />;
  if (snapshot.matches('notFound')) {
    return (
      <>
        <div className="panel">
          <p>{t('checkout.noProducts')}</p>
          <button type="button" className="button" onClick={onRetry}>
            {t('app.tryAgain')}
          </button>
        </div>
        {links}
      </>
    );
  }
  if (snapshot.matches('autoOrder') || snapshot.status === 'done') {
    return (
      <>
        <Suspense fallback={<Loading lines={1} />}>
          <OrderNotice link={snapshot.context.payment?.link ?? null} />
        </Suspense>
        {links}
      </>
    );
  }
  return (
    <>
      <UnpaidOrderBanner actor={actor} snapshot={snapshot} />
      <OrderForm actor={actor} snapshot={snapshot} user={user} />
      {links}
    </>
  );
}

/** The chart's unpaidOrder region: the banner while the saved order is unpaid, then word of its cancel. */
function UnpaidOrderBanner({ actor, snapshot }: { actor: CheckoutActor; snapshot: CheckoutSnapshot }) {
  const { t } = useTranslation();
  const { unpaidOrder, unpaidOrderError } = snapshot.context;
  // The order the banner was about, so its cancel can be announced once the banner is gone.
  const [cancelled, setCancelled] = useState<number | null>(null);
  const status = useRef<HTMLParagraphElement>(null);
  const shownOrder = useRef<number | null>(null);
  const none = snapshot.matches({ ready: { unpaidOrder: 'none' } });
  useEffect(() => {
    if (unpaidOrder) shownOrder.current = unpaidOrder.orderid;
    else if (none && shownOrder.current !== null) {
      setCancelled(shownOrder.current);
      shownOrder.current = null;
      // The button pressed is gone: the focus goes to the word that replaced it.
      status.current?.focus();
    }
  }, [unpaidOrder, none]);
  const asking = snapshot.matches({ ready: { unpaidOrder: 'confirmingCancel' } });
  const shown = asking || snapshot.matches({ ready: { unpaidOrder: 'shown' } }) || snapshot.matches({ ready: { unpaidOrder: 'cancelling' } });
  return (
    <>
      {shown && unpaidOrder && (
        <Suspense fallback={<Loading lines={2} />}>
          <UnpaidOrder
            orderid={unpaidOrder.orderid}
            cancelling={snapshot.matches({ ready: { unpaidOrder: 'cancelling' } })}
            error={unpaidOrderError}
            onContinue={() => actor.send({ type: 'unpaidOrder.continue' })}
            asking={asking}
            onCancel={() => actor.send({ type: 'unpaidOrder.cancel' })}
            onConfirmCancel={() => actor.send({ type: 'unpaidOrder.confirmCancel' })}
            onKeep={() => actor.send({ type: 'unpaidOrder.keep' })}
          />
        </Suspense>
      )}
      <p className={cancelled === null ? 'visually-hidden' : 'panel'} role="status" ref={status} tabIndex={-1}>
        {cancelled === null ? '' : t('unpaidOrder.cancelled', { orderid: cancelled })}
      </p>
    </>
  );
}

/** Why a link's automatic order stopped: the spec's message where it has one. */
function AutoOrderStopped({ stop }: { stop: AutoOrderStop }) {
  const { t } = useTranslation();
  const message = useMessage();
  const reason =
    stop.reason === 'email'
      ? t('messages.email.invalid')
      : stop.reason === 'plan'
        ? t('checkout.autoOrderPlanNotFound')
        : stop.reason === 'promo'
          ? 'key' in stop.error
            ? t(`messages.${stop.error.key}`)
            : message(stop.error.serverMessage)
          : message(stop.error);
  return (
    <div className="alert auto-order-stopped" role="alert">
      <p>{t('checkout.autoOrderStopped')}</p>
      <p>{reason}</p>
    </div>
  );
}

interface FormProps {
  actor: CheckoutActor;
  snapshot: CheckoutSnapshot;
  user: CheckoutUser | null;
}

function OrderForm({ actor, snapshot, user }: FormProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const { context } = snapshot;
  const product = selectedProduct(context);
  const submitting = snapshot.matches('submitting');
  const placing = usePlaceOrder(actor);
  const priceChange = placing?.snapshot.matches('priceChanged') ? placing.snapshot.context.priceChange : null;
  // An e-mail error shows once the field was left or a submit was refused, not while typing.
  const [touched, setTouched] = useState(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const optionPrice = (option: CheckoutOption | undefined) => (product && option ? priceFor(option.pricing, product.billingcycle, context.currency) : null);
  // Stable props for the memoised parts: a keystroke in the e-mail renders none of the plan cards or gateways again.
  const plans = useMemo(() => {
    const monthlyPlan = monthlyPlanOf(context.products);
    return context.products.map((plan) => ({
      ...plan,
      price: priceFor(plan.pricing, plan.billingcycle, context.currency),
      comparison: compareWithMonthly(plan, monthlyPlan, context.currency),
      lifetime: cycleMonths(plan.billingcycle) === null,
    }));
  }, [context.products, context.currency]);
  const selectPlan = useCallback((pid: number) => actor.send({ type: 'plan.select', pid }), [actor]);
  const selectGateway = useCallback((module: string) => actor.send({ type: 'gateway.select', module }), [actor]);
  const toggleExtraConnection = useCallback(() => actor.send({ type: 'extraConnection.toggle' }), [actor]);
  const toggleProxyProtection = useCallback(() => actor.send({ type: 'proxyProtection.toggle' }), [actor]);
  const toggleRemind = useCallback(() => actor.send({ type: 'remind.toggle' }), [actor]);
  const extraConnection = product?.configoptions.find((option) => option.id === EXTRA_CONNECTION_OPTION_ID);
  const proxyProtection = product?.configoptions.find((option) => option.id === PROXY_PROTECTION_OPTION_ID);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'order.submit' });
    if (actor.getSnapshot().matches('submitting')) return;
    setTouched(true);
    if (!user && !context.emailValid) emailInput.current?.focus();
  };

  const emailRequired = snapshot.matches({ ready: { email: 'required' } });
  // The server's page is shared by every signed-in visitor: the e-mail is this browser's to fill in.
  const hydrated = useHydrated();
  return (
    <form className="checkout-form" noValidate onSubmit={submit}>
      {context.autoOrderStop && <AutoOrderStopped stop={context.autoOrderStop} />}
      <PlanPicker legend={t('checkout.plans')} plans={plans} selected={context.selectedPid} currency={context.currency} onSelect={selectPlan} />
      {(optionPrice(extraConnection) !== null || optionPrice(proxyProtection) !== null) && (
        <fieldset className="addons">
          <legend>{t('checkout.addons')}</legend>
          <AddOn
            label={t('checkout.extraConnection')}
            hint={t('checkout.extraConnectionHint')}
            price={optionPrice(extraConnection)}
            checked={context.extraConnection}
            currency={context.currency}
            onToggle={toggleExtraConnection}
          />
          <AddOn
            label={t('checkout.proxyProtection')}
            hint={t('checkout.proxyProtectionHint')}
            price={optionPrice(proxyProtection)}
            checked={context.proxyProtection}
            currency={context.currency}
            onToggle={toggleProxyProtection}
          />
        </fieldset>
      )}
      <DiscountBox actor={actor} snapshot={snapshot} />
      {user ? (
        <p className="hint">{t('checkout.orderingAs', { email: hydrated ? user.email : '…' })}</p>
      ) : (
        <Field
          ref={emailInput}
          label={t('checkout.email')}
          hint={t('checkout.emailHint')}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={context.email}
          onChange={(event) => actor.send({ type: 'email.change', email: event.target.value })}
          onBlur={() => setTouched(true)}
          error={(touched || emailRequired || context.autoOrderStop?.reason === 'email') && context.emailError ? t(`messages.${context.emailError}`) : null}
        />
      )}
      <ReminderChoice checked={context.remind} onToggle={toggleRemind} />
      <GatewayPicker gateways={context.gateways} currency={context.currency} selected={context.selectedGateway} onSelect={selectGateway} />
      {/* While an order is placed the total is the one sent: after a confirmed price change, the server's. */}
      <CheckoutSummary
        snapshot={snapshot}
        sent={placing?.snapshot.context.request ?? null}
        alert={
          (priceChange || context.submitError) && (
            <>
              {priceChange && (
                <Suspense fallback={<Alert>{message('api.price_changed')}</Alert>}>
                  <PriceChanged change={priceChange} onConfirm={() => placing!.placeOrder.send({ type: 'price.confirm' })} onCancel={() => placing!.placeOrder.send({ type: 'price.cancel' })} />
                </Suspense>
              )}
              {context.submitError && <Alert>{message(context.submitError)}</Alert>}
            </>
          )
        }
        button={(describedBy, blocked) => (
          <button type="submit" className="button primary wide" aria-disabled={submitting || blocked || undefined} aria-describedby={describedBy}>
            {submitting ? t('checkout.submitting') : t('checkout.submit')}
          </button>
        )}
      />
      <p className="visually-hidden" role="status">
        {submitting ? t('checkout.submitting') : ''}
      </p>
    </form>
  );
}

/** "Remind me if I don't finish": a plain checkbox with its label and hint, ticked by default. */
const ReminderChoice = memo(function ReminderChoice({ checked, onToggle }: { checked: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="addon remind">
      <input type="checkbox" id={id} name="remind" checked={checked} onChange={onToggle} aria-describedby={`${id}-hint`} />
      <label htmlFor={id}>{t('checkout.remind')}</label>
      <p className="hint" id={`${id}-hint`}>
        {t('checkout.remindHint')}
      </p>
    </div>
  );
});

/** An add-on switch with its price for the plan's cycle; absent when the plan does not offer it. */
const AddOn = memo(function AddOn({ label, hint, price, checked, currency, onToggle }: { label: string; hint: string; price: number | null; checked: boolean; currency: Currency; onToggle: () => void }) {
  const id = useId();
  const { money } = useFormat();
  if (price === null) return null;
  return (
    <div className="addon">
      <input type="checkbox" role="switch" id={id} checked={checked} onChange={onToggle} aria-describedby={`${id}-hint`} />
      <label htmlFor={id}>
        {label} <span className="addon-price">+{money(price, currency)}</span>
      </label>
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
    </div>
  );
});

/** The discount box: type a code, apply it; the code applied or the reason it is refused. */
function DiscountBox({ actor, snapshot }: { actor: CheckoutActor; snapshot: CheckoutSnapshot }) {
  const { t } = useTranslation();
  const message = useMessage();
  const { promoCode, promotion, promoError } = snapshot.context;
  const checking = snapshot.matches({ ready: { promo: 'checking' } });
  const apply = () => actor.send({ type: 'promo.apply' });
  const field = useRef<HTMLInputElement>(null);
  // The code just removed, to say so until the field changes again.
  const [removed, setRemoved] = useState<string | null>(null);
  const remove = () => {
    if (!promotion) return;
    setRemoved(promotion.code);
    actor.send({ type: 'promo.remove' });
    // The Remove button goes with the code: the focus goes back to the empty field.
    field.current?.focus();
  };
  // Enter applies the code instead of submitting the order.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    apply();
  };
  const error = promoError && ('key' in promoError ? t(`messages.${promoError.key}`) : message(promoError.serverMessage));
  return (
    <div className="discount">
      <Field
        ref={field}
        label={t('checkout.discount')}
        name="promocode"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={promoCode}
        readOnly={checking}
        onChange={(event) => {
          setRemoved(null);
          actor.send({ type: 'promo.change', code: event.target.value });
        }}
        onKeyDown={onKeyDown}
        error={error}
        action={
          <button type="button" className="button secondary" aria-disabled={checking || promotion !== null || undefined} onClick={apply}>
            {checking ? t('checkout.checkingDiscount') : t('checkout.applyDiscount')}
          </button>
        }
      />
      <div className="discount-status">
        <p className="success-text" role="status">
          {promotion ? t('checkout.discountApplied', { code: promotion.code }) : removed ? t('checkout.discountRemoved', { code: removed }) : ''}
        </p>
        {promotion && (
          <button type="button" className="button link small" aria-label={t('checkout.removeDiscountLabel', { code: promotion.code })} onClick={remove}>
            {t('checkout.removeDiscount')}
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * The order summary with the pay button; the total is announced as it changes. No payment method takes
 * the currency (or none loaded): the button stays disabled and says why.
 */
function CheckoutSummary({ snapshot, sent, alert, button }: { snapshot: CheckoutSnapshot; sent: { amount: number; currency: Currency } | null; alert: ReactNode; button: (describedBy: string | undefined, blocked: boolean) => ReactNode }) {
  const { t } = useTranslation();
  const { money } = useFormat();
  const { context } = snapshot;
  const product = selectedProduct(context);
  const quote = product ? context.quote : null;
  const { hint, reason } = usePaymentNote(context.gateways, context.selectedGateway, context.currency);
  const total = quote && (sent ? money(sent.amount, sent.currency) : money(quote.total, quote.currency));
  const cycle = product ? t(`cycle.${cycleKey(product.billingcycle)}`) : undefined;
  const lines =
    product && quote
      ? [
          { label: product.name, amount: money(quote.price, quote.currency) },
          ...(quote.extraConnection > 0 ? [{ label: t('checkout.extraConnection'), amount: money(quote.extraConnection, quote.currency) }] : []),
          ...(quote.proxyProtection > 0 ? [{ label: t('checkout.proxyProtection'), amount: money(quote.proxyProtection, quote.currency) }] : []),
          ...(quote.discount > 0 ? [{ label: `${t('checkout.discountLine')} (${context.promotion?.code ?? ''})`, amount: money(-quote.discount, quote.currency) }] : []),
        ]
      : null;
  return (
    <OrderSummary
      title={t('checkout.summary')}
      lines={lines}
      totalLabel={t('checkout.total')}
      total={
        <>
          <output aria-live="polite">{total}</output> <span className="hint">{cycle}</span>
        </>
      }
      barTotal={total ? { amount: total, note: cycle } : null}
      hint={hint}
      reason={reason}
      alert={alert}
      button={(describedBy) => button(describedBy, reason !== null)}
    />
  );
}
