import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Actor, SnapshotFrom } from 'xstate';
import type { authMachine } from '../../../machines/auth.machine';
import type { upsellMachine } from '../../../machines/upsell.machine';
import { UPSELL_MAX_QUANTITY, UPSELL_MIN_QUANTITY } from '../../domain/constants';
import { visitorCurrency } from '../../domain/locale';
import { upsellLogic } from '../actors/upsell';
import { defaultGatewayFor, GatewayPicker } from '../components/Choices';
import { Alert, Loading } from '../components/Feedback';
import { LoginPanel } from '../components/LoginPanel';
import { OrderNotice } from '../components/OrderNotice';
import { OrderSummary, usePaymentNote } from '../components/OrderSummary';
import { PageTitle } from '../components/PageTitle';
import { RenewsOn } from '../components/RenewsOn';
import { cycleKey, useFormat } from '../format';
import { useApp, useMessage, useMinimumDuration } from '../hooks';
import { localeParam, useLocale } from '../locale';
import type { Gateways } from '../services';

type UpsellActor = Actor<typeof upsellMachine>;
type UpsellSnapshot = SnapshotFrom<typeof upsellMachine>;

const route = getRouteApi('/{-$locale}/upsell');

/** Upsell: extra connections for one of the logged-in client's active services. */
export function UpsellView() {
  const { t } = useTranslation();
  const gateways = route.useLoaderData();
  const locale = useLocale();
  const { auth } = useApp().session;
  // Only a client (not a guest identified by e-mail) has services to extend; signing out may fail, so the form stays until it is done.
  const signedIn = (snapshot: SnapshotFrom<typeof authMachine>) => snapshot.matches('loggedIn') || snapshot.matches('signingOut');
  const clientId = useSelector(auth, (snapshot) => (signedIn(snapshot) && snapshot.context.user?.guest === false ? snapshot.context.user.userid : null));
  const guestEmail = useSelector(auth, (snapshot) => (signedIn(snapshot) && snapshot.context.user?.guest ? snapshot.context.user.email : null));
  return (
    <section className={clientId !== null ? 'page upsell two-pane' : 'page upsell'}>
      <PageTitle>{t('upsell.title')}</PageTitle>
      <p className="lead">{t('upsell.intro')}</p>
      {clientId !== null ? (
        <Upsell key={`${clientId}:${locale}`} {...gateways} />
      ) : guestEmail !== null ? (
        // A guest session cannot log in over itself: the header's Sign Out comes first.
        <p className="banner">{t('login.signOutFirst', { email: guestEmail })}</p>
      ) : (
        <LoginPanel title={t('login.upsellTitle')} />
      )}
    </section>
  );
}

function Upsell({ gateways, defaultGateway }: Gateways) {
  const { t } = useTranslation();
  const message = useMessage();
  const app = useApp();
  const locale = useLocale();
  const [logic] = useState(() => upsellLogic(app));
  const [input] = useState(() => {
    const currency = visitorCurrency(locale, app.session.visitor.country);
    return { currency, gateways, selectedGateway: defaultGatewayFor(gateways, defaultGateway, currency) };
  });
  const actor = useActorRef(logic, { input, inspect: app.inspect });
  const snapshot = useSelector(actor, (current) => current);
  const loading = useMinimumDuration(snapshot.matches('loading'), app.minLoadingMs);

  if (loading) return <Loading lines={4} />;
  if (snapshot.matches('failed')) {
    return (
      <>
        <Alert>{message(snapshot.context.error ?? 'request.failed')}</Alert>
        <button type="button" className="button" onClick={() => actor.send({ type: 'services.retry' })}>
          {t('app.tryAgain')}
        </button>
      </>
    );
  }
  if (snapshot.matches('empty')) {
    return (
      <>
        <p>{t('upsell.empty')}</p>
        <p>
          <Link to="/{-$locale}" params={{ locale: localeParam(locale) }} className="button">
            {t('upsell.toCheckout')}
          </Link>
        </p>
      </>
    );
  }
  if (snapshot.matches('redirecting')) return <OrderNotice link={snapshot.context.paymentLink} />;
  return <UpsellForm actor={actor} snapshot={snapshot} />;
}

function UpsellForm({ actor, snapshot }: { actor: UpsellActor; snapshot: UpsellSnapshot }) {
  const { t } = useTranslation();
  const message = useMessage();
  const { money, day } = useFormat();
  const ids = useId();
  const { services, selectedServiceId, quantity, gateways, selectedGateway, price, currency, error } = snapshot.context;
  const service = services.find((candidate) => candidate.serviceid === selectedServiceId);
  const submitting = snapshot.matches('submitting');
  // On a service with a due date the price covers the days left of what is billed, not a whole period.
  // A whole period left is the full price: it reads as the cycle's price, as on a lifetime service.
  const proration = service?.proration && service.proration.remainingDays !== service.proration.periodDays ? service.proration : null;
  const period = proration ? t('upsell.prorated', { count: proration.remainingDays, date: day(proration.until) }) : service ? t(`cycle.${cycleKey(service.billingcycle)}`) : '';
  const { hint, reason } = usePaymentNote(gateways, selectedGateway, currency);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // No payment method takes the currency: the summary says so and nothing is ordered.
    if (reason === null) actor.send({ type: 'order.submit' });
  };
  return (
    <form className="upsell-form" onSubmit={submit}>
      <div className="field">
        <label htmlFor={`${ids}-service`}>{t('upsell.service')}</label>
        <select id={`${ids}-service`} value={selectedServiceId ?? ''} onChange={(event) => actor.send({ type: 'service.select', serviceid: Number(event.target.value) })}>
          {services.map((candidate) => (
            <option key={candidate.serviceid} value={candidate.serviceid}>
              {t('upsell.serviceOption', { name: candidate.name, id: candidate.serviceid })}
            </option>
          ))}
        </select>
        {service && <p className="hint">{t('upsell.current', { count: service.extraConnections })}</p>}
        {service && <RenewsOn date={service.nextduedate} className="hint" />}
      </div>
      <div className="field">
        <label htmlFor={`${ids}-quantity`}>{t('upsell.quantity')}</label>
        <div className="range">
          <input
            id={`${ids}-quantity`}
            type="range"
            min={UPSELL_MIN_QUANTITY}
            max={UPSELL_MAX_QUANTITY}
            step={1}
            value={quantity}
            onChange={(event) => actor.send({ type: 'quantity.change', quantity: Number(event.target.value) })}
          />
          <output htmlFor={`${ids}-quantity`}>{quantity}</output>
        </div>
      </div>
      <GatewayPicker gateways={gateways} currency={currency} selected={selectedGateway} onSelect={(gateway) => actor.send({ type: 'gateway.select', gateway })} />
      <OrderSummary
        title={t('checkout.summary')}
        lines={service ? [{ label: t('upsell.serviceOption', { name: service.name, id: service.serviceid }), amount: '' }, { label: t('upsell.quantity'), amount: String(quantity) }] : null}
        totalLabel={t('upsell.price')}
        total={<output aria-live="polite">{price === null ? t('upsell.notSold', { currency }) : `${money(price, currency)} ${period}`}</output>}
        barTotal={price === null ? null : { amount: money(price, currency), note: period }}
        hint={hint}
        reason={reason}
        alert={error && <Alert>{message(error)}</Alert>}
        button={(describedBy) => (
          <button type="submit" className="button primary wide" aria-disabled={submitting || price === null || reason !== null || undefined} aria-describedby={describedBy}>
            {submitting ? t('upsell.submitting') : t('upsell.submit', { amount: price === null ? '' : money(price, currency) })}
          </button>
        )}
      />
    </form>
  );
}
