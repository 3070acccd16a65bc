import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Actor, SnapshotFrom } from 'xstate';
import { openInvoice, payableGateways, type renewalMachine, type ServiceRenewal } from '../../../machines/renewal.machine';
import { renewalLogic } from '../actors/renewal';
import { GatewayPicker } from '../components/Choices';
import { Alert, Loading } from '../components/Feedback';
import { LoginPanel } from '../components/LoginPanel';
import { NothingToShow } from '../components/NothingToShow';
import { OrderNotice } from '../components/OrderNotice';
import { OrderSummary, usePaymentNote } from '../components/OrderSummary';
import { PageTitle } from '../components/PageTitle';
import { StatusBadge } from '../components/StatusBadge';
import { cycleKey, useFormat } from '../format';
import { useApp, useMessage, useMinimumDuration } from '../hooks';
import { localeParam, useLocale } from '../locale';
import type { Gateways } from '../services';

type RenewalActor = Actor<typeof renewalMachine>;
type RenewalSnapshot = SnapshotFrom<typeof renewalMachine>;

const route = getRouteApi('/{-$locale}/renew');

/** Renew: a service's renewal invoice, paid through the checkout's gateways (a renewal reminder's link lands here). */
export function RenewView() {
  const { t } = useTranslation();
  const { serviceid } = route.useSearch();
  const gateways = route.useLoaderData();
  const locale = useLocale();
  // Signing in (the login panel of a visitor) starts the page afresh for the new session.
  const user = useSelector(useApp().session.auth, (snapshot) => snapshot.context.user?.userid ?? null);
  return (
    // Two panes as the upsell's: the renewal's choices left, its summary and Pay right (a single column below 960 px).
    <section className={serviceid ? 'page renew two-pane' : 'page renew'}>
      <PageTitle>{t('renew.title')}</PageTitle>
      {serviceid ? <Renewal key={`${serviceid}:${locale}:${user}`} serviceid={serviceid} {...gateways} /> : <NothingToShow message={t('renew.none')} />}
    </section>
  );
}

function Renewal({ serviceid, gateways, defaultGateway }: Gateways & { serviceid: number }) {
  const { t } = useTranslation();
  const message = useMessage();
  const app = useApp();
  const [logic] = useState(() => renewalLogic(app));
  const [input] = useState(() => ({ serviceid, gateways, defaultGateway }));
  const actor = useActorRef(logic, { input, inspect: app.inspect });
  const snapshot = useSelector(actor, (current) => current);
  const loading = useMinimumDuration(snapshot.matches('loading'), app.minLoadingMs);
  const { renewal, error } = snapshot.context;

  if (loading) return <Loading lines={4} />;
  if (snapshot.matches('failed')) {
    return (
      <>
        <Alert>{message(error ?? 'request.failed')}</Alert>
        <button type="button" className="button" onClick={() => actor.send({ type: 'renewal.retry' })}>
          {t('app.tryAgain')}
        </button>
      </>
    );
  }
  if (snapshot.matches('signedOut')) return <SignInFirst error={error} />;
  if (snapshot.matches('redirecting')) return <OrderNotice link={snapshot.context.paymentLink} />;
  if (!renewal) return null;
  if (snapshot.matches('ready') || snapshot.matches('paying')) return <RenewalForm actor={actor} snapshot={snapshot} renewal={renewal} />;
  return (
    <>
      <ServiceHeading renewal={renewal} />
      {error && <Alert>{message(error)}</Alert>}
      {snapshot.matches('notDue') ? <NotDue renewal={renewal} /> : snapshot.matches('lifetime') ? <Lifetime renewal={renewal} /> : <Ended renewal={renewal} />}
    </>
  );
}

/** The service's name and status, heading what the page says of it. */
function ServiceHeading({ renewal }: { renewal: ServiceRenewal }) {
  const { t } = useTranslation();
  return (
    <h2 className="lead">
      {t('renew.service', { name: renewal.name, id: renewal.serviceid })} <StatusBadge status={renewal.status} />
    </h2>
  );
}

/** The service this session cannot reach: a visitor logs in, a guest signs out first, another client sees the refusal. */
function SignInFirst({ error }: { error: string | null }) {
  const { t } = useTranslation();
  const message = useMessage();
  const { auth } = useApp().session;
  const loggedIn = useSelector(auth, (snapshot) => snapshot.matches('loggedIn'));
  const guestEmail = useSelector(auth, (snapshot) => (snapshot.context.user?.guest ? snapshot.context.user.email : null));
  return (
    <>
      <Alert>{message(error ?? 'api.unauthenticated')}</Alert>
      {guestEmail !== null ? <p className="banner">{t('login.signOutFirst', { email: guestEmail })}</p> : !loggedIn && <LoginPanel title={t('login.renewTitle')} />}
    </>
  );
}

/** Paid until the due date; when the next invoice comes (unknown with a billing system that issues its own). */
function NotDue({ renewal }: { renewal: ServiceRenewal }) {
  const { t } = useTranslation();
  const { day } = useFormat();
  return (
    <>
      {renewal.nextduedate && <p>{t('renew.paidUntil', { date: day(renewal.nextduedate) })}</p>}
      <p>{renewal.invoiceDate ? t('renew.invoiceDate', { date: day(renewal.invoiceDate) }) : t('renew.noInvoiceYet')}</p>
      <ServiceLink serviceid={renewal.serviceid} />
    </>
  );
}

/** A lifetime service never falls due. */
function Lifetime({ renewal }: { renewal: ServiceRenewal }) {
  const { t } = useTranslation();
  return (
    <>
      <p>{t('renew.lifetime')}</p>
      <ServiceLink serviceid={renewal.serviceid} />
    </>
  );
}

/** A terminated service is ordered anew (one not active yet has nothing to renew either). */
function Ended({ renewal }: { renewal: ServiceRenewal }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <>
      <p>{renewal.status === 'Pending' ? t('renew.notActive') : t('renew.ended')}</p>
      <p>
        <Link to="/{-$locale}" params={{ locale: localeParam(locale) }} className="button">
          {t('renew.orderAnew')}
        </Link>
      </p>
    </>
  );
}

function ServiceLink({ serviceid }: { serviceid: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <p>
      <Link to="/{-$locale}/success" params={{ locale: localeParam(locale) }} search={{ serviceid }}>
        {t('renew.toService')}
      </Link>
    </p>
  );
}

function RenewalForm({ actor, snapshot, renewal }: { actor: RenewalActor; snapshot: RenewalSnapshot; renewal: ServiceRenewal }) {
  const { t } = useTranslation();
  const message = useMessage();
  const { money, day } = useFormat();
  const { selectedGateway, error } = snapshot.context;
  const invoice = openInvoice(renewal);
  const gateways = payableGateways(snapshot.context);
  const paying = snapshot.matches('paying');
  const currency = invoice?.currency ?? 'EUR';
  // Of every gateway: none at all, or none taking the invoice's currency, each has its own reason.
  const { hint, reason } = usePaymentNote(snapshot.context.gateways, selectedGateway, currency);
  if (!invoice) return null;
  const amount = money(invoice.amount, currency);
  const cycle = t(`cycle.${cycleKey(renewal.billingcycle)}`);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // With no gateway taking the invoice's currency the chart refuses the payment (canPay); the summary says why.
    actor.send({ type: 'renewal.pay' });
  };
  const note: ReactNode =
    renewal.status === 'Suspended' ? <p className="banner warning">{t('renew.suspended')}</p> : <p>{t('renew.dueOn', { date: day(invoice.periodStart) })}</p>;
  return (
    <form className="renew-form" onSubmit={submit}>
      <div>
        <ServiceHeading renewal={renewal} />
        {note}
        <p>{t('renew.extendsTo', { date: day(invoice.periodEnd) })}</p>
        {gateways.length > 0 && <GatewayPicker gateways={gateways} currency={currency} selected={selectedGateway} onSelect={(gateway) => actor.send({ type: 'gateway.select', gateway })} />}
      </div>
      <OrderSummary
        title={t('checkout.summary')}
        lines={[{ label: t('renew.period', { start: day(invoice.periodStart), end: day(invoice.periodEnd) }), amount }]}
        totalLabel={t('renew.amount')}
        total={<output aria-live="polite">{`${amount} ${cycle}`}</output>}
        barTotal={{ amount, note: cycle }}
        hint={hint}
        reason={reason}
        alert={error && <Alert>{message(error)}</Alert>}
        button={(describedBy) => (
          <button type="submit" className="button primary wide" aria-disabled={paying || reason !== null || undefined} aria-describedby={describedBy}>
            {paying ? t('renew.submitting') : t('renew.submit', { amount })}
          </button>
        )}
      />
    </form>
  );
}
