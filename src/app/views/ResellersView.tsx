import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Actor, SnapshotFrom } from 'xstate';
import type { ResellerProductsOutput, ResellerService } from '../../../machines/reseller.context';
import type { resellerMachine } from '../../../machines/reseller.machine';
import type { components } from '../../api/schema';
import { visitorCurrency } from '../../domain/locale';
import { MIN_PASSWORD_LENGTH } from '../../domain/password';
import { priceFor } from '../../domain/pricing';
import { resellerLogic } from '../actors/reseller';
import { settle, unwrap, type Settled } from '../api';
import { defaultGatewayFor, GatewayPicker, PlanPicker } from '../components/Choices';
import { Alert, Loading } from '../components/Feedback';
import { Field } from '../components/Field';
import { OrderNotice } from '../components/OrderNotice';
import { PageTitle } from '../components/PageTitle';
import { useFormat } from '../format';
import { statusKey } from '../status';
import { useApp, useMessage, useMinimumDuration } from '../hooks';
import { localeParam, useLocale } from '../locale';
import type { AppServices, Gateways } from '../services';

type ResellerActor = Actor<typeof resellerMachine>;
type ResellerSnapshot = SnapshotFrom<typeof resellerMachine>;
type Catalogue = Settled<components['schemas']['ResellerProductList']>;

const resellersRoute = getRouteApi('/{-$locale}/resellers');
const successRoute = getRouteApi('/{-$locale}/resellers/success');

const loadCatalogue = (app: AppServices) => settle(unwrap(app.client.GET('/checkout/api/getResellersProducts', { params: { query: { locale: app.catalogueLocale() } } })));

/** Reseller plans (the second selected), existing reseller yes/no, account and payment method. */
export function ResellersView() {
  const { t } = useTranslation();
  const { catalogue, ...gateways } = resellersRoute.useLoaderData();
  const locale = useLocale();
  // The machine takes the new-reseller product as input; it comes with the catalogue, so a catalogue
  // that names another one (loaded on a retry) starts the form again with it.
  const [current, setCurrent] = useState<Catalogue>(catalogue);
  const newResellerPid = current.ok ? current.value.newResellerPid : null;
  return (
    <section className="page resellers">
      <PageTitle>{t('reseller.title')}</PageTitle>
      <p className="lead">{t('reseller.intro')}</p>
      <ResellerOrder key={`${locale}:${newResellerPid}`} first={current} onCatalogue={setCurrent} {...gateways} />
    </section>
  );
}

function ResellerOrder({ first, onCatalogue, gateways, defaultGateway }: Gateways & { first: Catalogue; onCatalogue: (catalogue: Catalogue) => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const app = useApp();
  const navigate = useNavigate();
  const locale = useLocale();
  const unused = useRef<Catalogue | null>(first);
  const newResellerPid = first.ok ? first.value.newResellerPid : null;
  const [logic] = useState(() =>
    resellerLogic(app, {
      loadProducts: async (): Promise<ResellerProductsOutput> => {
        const catalogue = unused.current ?? (await loadCatalogue(app));
        unused.current = null;
        if (!catalogue.ok) throw catalogue.error;
        if (catalogue.value.newResellerPid !== newResellerPid) onCatalogue(catalogue);
        return catalogue.value;
      },
      goToWaiting: () => void navigate({ to: '/{-$locale}/resellers/waiting', params: { locale: localeParam(locale) } }),
      goToResellers: () => {},
    }),
  );
  const email = useSelector(app.session.auth, (snapshot) => (snapshot.matches('loggedIn') ? snapshot.context.user?.email : undefined));
  const [input] = useState(() => {
    const currency = visitorCurrency(locale, app.session.visitor.country);
    return { currency, gateways, selectedGateway: defaultGatewayFor(gateways, defaultGateway, currency), email, newResellerPid };
  });
  const actor = useActorRef(logic, { input, inspect: app.inspect });
  useEffect(() => actor.send({ type: 'products.load' }), [actor]);
  const snapshot = useSelector(actor, (current) => current);
  const loading = useMinimumDuration(snapshot.matches('idle') || snapshot.matches('loading'), app.minLoadingMs);

  if (loading) return <Loading lines={5} />;
  if (snapshot.matches('failed')) {
    return (
      <>
        <Alert>{message(snapshot.context.error ?? 'request.failed')}</Alert>
        <button type="button" className="button" onClick={() => actor.send({ type: 'products.retry' })}>
          {t('app.tryAgain')}
        </button>
      </>
    );
  }
  if (snapshot.matches('empty')) return <p>{t('reseller.empty')}</p>;
  if (snapshot.status === 'done') return <OrderNotice link={snapshot.context.paymentLink} />;
  return <ResellerForm actor={actor} snapshot={snapshot} />;
}

function ResellerForm({ actor, snapshot }: { actor: ResellerActor; snapshot: ResellerSnapshot }) {
  const { t } = useTranslation();
  const message = useMessage();
  const { money } = useFormat();
  const { products, selectedPid, existingReseller, email, password, confirmPassword, emailError, passwordError, passwordRuleError, gateways, selectedGateway, newResellerPid, price, currency, error } =
    snapshot.context;
  const busy = snapshot.matches('authenticating') || snapshot.matches('ordering');
  const priceOf = (plan: (typeof products)[number]) => priceFor(plan.pricing, plan.billingcycle, currency);
  // The new-reseller product is not a plan to pick: a new reseller's order adds it.
  const activation = products.find((plan) => plan.pid === newResellerPid);
  const activationPrice = activation ? priceOf(activation) : null;
  // Errors show once a field was left or a submit was refused, not while typing.
  const [touched, setTouched] = useState({ email: false, password: false, confirmation: false });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'order.submit' });
    if (actor.getSnapshot().matches('ready')) setTouched({ email: true, password: true, confirmation: true });
  };
  return (
    <form className="reseller-form" noValidate onSubmit={submit}>
      <PlanPicker
        legend={t('reseller.plans')}
        plans={products.filter((plan) => plan !== activation).map((plan) => ({ ...plan, price: priceOf(plan) }))}
        selected={selectedPid}
        currency={currency}
        onSelect={(pid) => actor.send({ type: 'plan.select', pid })}
      />
      <fieldset className="choices inline">
        <legend>{t('reseller.existing')}</legend>
        <label className="choice">
          <input type="radio" name="existingReseller" checked={existingReseller} onChange={() => actor.send({ type: 'reseller.choose', existing: true })} />
          {t('reseller.yes')}
        </label>
        <label className="choice">
          <input type="radio" name="existingReseller" checked={!existingReseller} onChange={() => actor.send({ type: 'reseller.choose', existing: false })} />
          {t('reseller.no')}
        </label>
      </fieldset>
      {!existingReseller && activationPrice !== null && <p className="hint">{t('reseller.newNote', { price: money(activationPrice, currency) })}</p>}
      <Field
        label={t('reseller.email')}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(event) => actor.send({ type: 'email.change', email: event.target.value })}
        onBlur={() => setTouched({ ...touched, email: true })}
        error={touched.email && emailError ? t(`messages.${emailError}`) : null}
      />
      <Field
        label={t('reseller.password')}
        type="password"
        name="password"
        autoComplete={existingReseller ? 'current-password' : 'new-password'}
        required
        minLength={existingReseller ? undefined : MIN_PASSWORD_LENGTH}
        hint={existingReseller ? undefined : t('reseller.passwordHint')}
        value={password}
        onChange={(event) => actor.send({ type: 'password.change', password: event.target.value })}
        onBlur={() => setTouched({ ...touched, password: true })}
        error={touched.password && passwordRuleError ? t(`messages.${passwordRuleError}`) : null}
      />
      {!existingReseller && (
        <Field
          label={t('reseller.confirmPassword')}
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          required
          value={confirmPassword}
          onChange={(event) => actor.send({ type: 'confirmation.change', password: event.target.value })}
          onBlur={() => setTouched({ ...touched, confirmation: true })}
          error={touched.confirmation && passwordError ? t(`messages.${passwordError}`) : null}
        />
      )}
      <GatewayPicker gateways={gateways} currency={currency} selected={selectedGateway} onSelect={(gateway) => actor.send({ type: 'gateway.select', gateway })} />
      {price !== null && (
        <p className="total">
          <span>{t('reseller.total')}</span> <output aria-live="polite">{money(price, currency)}</output>
        </p>
      )}
      {error && <Alert>{message(error)}</Alert>}
      <button type="submit" className="button primary wide" aria-disabled={busy || undefined}>
        {busy ? t('reseller.submitting') : t('reseller.submit')}
      </button>
    </form>
  );
}

/** Reseller success: only for a logged-in user whose reseller service is Active; anyone else goes to the reseller page. */
export function ResellerSuccessView() {
  const { t } = useTranslation();
  const app = useApp();
  const navigate = useNavigate();
  const locale = useLocale();
  const { loggedIn } = successRoute.useLoaderData();
  const { serviceid } = successRoute.useSearch();
  const [logic] = useState(() =>
    resellerLogic(app, {
      loadProducts: async () => {
        const catalogue = await loadCatalogue(app);
        if (!catalogue.ok) throw catalogue.error;
        return catalogue.value;
      },
      goToWaiting: () => {},
      goToResellers: () => void navigate({ to: '/{-$locale}/resellers', params: { locale: localeParam(locale) }, replace: true }),
    }),
  );
  const [input] = useState(() => ({ currency: visitorCurrency(locale, app.session.visitor.country), gateways: [], selectedGateway: '', newResellerPid: null }));
  const actor = useActorRef(logic, { input, inspect: app.inspect });
  useEffect(() => actor.send({ type: 'success.check', serviceid: serviceid ?? null, loggedIn }), [actor, serviceid, loggedIn]);
  const service = useSelector(actor, (snapshot) => (snapshot.matches({ successGuard: 'allowed' }) ? snapshot.context.resellerService : null));
  const status = service ? statusKey(service.reseller.status) : null;
  return (
    <section className="page reseller-success">
      <PageTitle>{t('reseller.successTitle')}</PageTitle>
      {service ? (
        <>
          <p className="lead">{t('reseller.successText', { name: service.reseller.name, status: status ? t(`status.${status}`) : service.reseller.status })}</p>
          <p>{t('reseller.service', { id: service.serviceid, name: service.name })}</p>
          <ResellerPanel panel={service.panel} />
        </>
      ) : (
        <Loading lines={2} />
      )}
    </section>
  );
}

/** The reseller panel: its address, the panel login and the credits bought through the checkout. */
function ResellerPanel({ panel }: { panel: ResellerService['panel'] }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="reseller-panel" aria-labelledby="reseller-panel-title">
      <h2 id="reseller-panel-title">{t('player.reseller.title')}</h2>
      <p>{panel.username === null ? t('player.reseller.pending') : t('player.reseller.intro')}</p>
      <dl className="credentials">
        {panel.url && (
          <div className="credential">
            <dt>{t('player.reseller.panel')}</dt>
            <dd>
              <a href={panel.url} target="_blank" rel="noopener noreferrer">{panel.url}</a>
            </dd>
          </div>
        )}
        {panel.username !== null && (
          <div className="credential">
            <dt>{t('player.reseller.login')}</dt>
            <dd>
              <code>{panel.username}</code>
            </dd>
          </div>
        )}
        {panel.password !== null && (
          <div className="credential">
            <dt>{t('success.password')}</dt>
            <dd>
              <code>{panel.password}</code>
            </dd>
          </div>
        )}
        <div className="credential">
          <dt>{t('player.reseller.credits')}</dt>
          <dd>
            <strong>{new Intl.NumberFormat(i18n.language).format(panel.credits)}</strong>
            <span className="hint">{t('player.reseller.creditsHint')}</span>
          </dd>
        </div>
      </dl>
    </section>
  );
}
