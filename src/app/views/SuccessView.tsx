import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Actor, SnapshotFrom } from 'xstate';
import type { ClientProduct, CopyField, serviceMachine } from '../../../machines/service.machine';
import { panelUrl, PLAYERS, playerOf, portalUrl } from '../../domain/panel';
import { serviceLogic } from '../actors/service';
import { Alert, Loading } from '../components/Feedback';
import { Field } from '../components/Field';
import { LoginPanel } from '../components/LoginPanel';
import { NothingToShow } from '../components/NothingToShow';
import { PageTitle } from '../components/PageTitle';
import { QrCode } from '../components/QrCode';
import { InvoiceReceipt } from '../components/Receipt';
import { RenewsOn } from '../components/RenewsOn';
import { StatusBadge } from '../components/StatusBadge';
import { useApp, useMessage, useMinimumDuration } from '../hooks';
import { localeParam, useLocale } from '../locale';
import { successServiceId } from '../success-service';

type ServiceActor = Actor<typeof serviceMachine>;
type ServiceSnapshot = SnapshotFrom<typeof serviceMachine>;

const route = getRouteApi('/{-$locale}/success');

const COPY_EVENTS = { username: 'copy.username', password: 'copy.password', host: 'copy.host', playlist: 'copy.playlist' } as const;

/** Success: the service's credentials with copy buttons, playlist, the player guide and the device address. */
export function SuccessView() {
  const { t } = useTranslation();
  const app = useApp();
  const { serviceid, invoiceid } = route.useSearch();
  // Without a serviceid in the URL, the service of the order paid in this browser.
  const [savedServiceId] = useState(() => successServiceId(app, undefined));
  const id = serviceid ?? savedServiceId;
  // The server's first paint of the credentials (its signed-in owner's only), for the chart to start from.
  const painted = route.useLoaderData();
  const firstPaint = painted && painted.serviceid === id ? painted.product : null;
  return (
    <section className="page success">
      <PageTitle>{t('success.title')}</PageTitle>
      {id ? (
        // The login details the shopper came for lead; the receipt follows them.
        <Service key={id} serviceid={id} firstPaint={firstPaint} receipt={invoiceid ? <InvoiceReceipt invoiceid={invoiceid} /> : null} />
      ) : (
        <NothingToShow message={t('success.none')} />
      )}
    </section>
  );
}

function Service({ serviceid, firstPaint, receipt }: { serviceid: number; firstPaint: ClientProduct | null; receipt: ReactNode }) {
  const { t } = useTranslation();
  const message = useMessage();
  const app = useApp();
  const locale = useLocale();
  const [logic] = useState(() => serviceLogic(app));
  const actor = useActorRef(logic, { input: { serviceid, product: firstPaint }, inspect: app.inspect });
  const snapshot = useSelector(actor, (current) => current);
  // A service the page was painted with starts the chart ready: hydration changes nothing on screen.
  const loading = useMinimumDuration(snapshot.matches('loading'), app.minLoadingMs);
  const loggedIn = useSelector(app.session.auth, (auth) => auth.matches('loggedIn'));
  const isClient = useSelector(app.session.auth, (auth) => auth.matches('loggedIn') && auth.context.user?.guest === false);
  const { product, error } = snapshot.context;

  if (loading) return <Loading lines={6} />;
  if (snapshot.matches('failed') || !product) {
    return (
      <>
        {error && <Alert>{message(error)}</Alert>}
        <p>
          <button type="button" className="button" onClick={() => actor.send({ type: 'service.retry' })}>
            {t('app.tryAgain')}
          </button>
        </p>
        {!loggedIn && <LoginPanel title={t('login.serviceTitle')} />}
        {receipt}
      </>
    );
  }
  const suspended = product.status === 'Suspended';
  return (
    <>
      <p className="lead">
        {product.name} <StatusBadge status={product.status} />
      </p>
      {!suspended && <RenewsOn date={product.nextduedate} />}
      {suspended ? (
        <p className="banner warning">
          {t('success.suspended')}{' '}
          <Link to="/{-$locale}/renew" params={{ locale: localeParam(locale) }} search={{ serviceid }}>
            {t('success.renewLink')}
          </Link>
        </p>
      ) : product.username === null || product.password === null ? (
        <p className="banner">{t('success.pending')}</p>
      ) : (
        <>
          <p>{t('success.intro')}</p>
          <dl className="credentials">
            <Credential actor={actor} snapshot={snapshot} field="username" label={t('success.username')} value={product.username} />
            <Credential actor={actor} snapshot={snapshot} field="password" label={t('success.password')} value={product.password} />
            <Credential actor={actor} snapshot={snapshot} field="host" label={t('success.host')} value={product.serverhostname} />
            {product.playlistUrl && (
              <div className="credential">
                <dt>{t('success.playlist')}</dt>
                <dd>
                  <button type="button" className="button" onClick={() => actor.send({ type: 'playlist.download' })}>
                    {t('success.download')}
                  </button>
                  <CopyButton actor={actor} snapshot={snapshot} field="playlist" label={t('success.playlist')} />
                </dd>
              </div>
            )}
          </dl>
        </>
      )}
      <PlayerGuide actor={actor} snapshot={snapshot} product={product} />
      <DeviceForm actor={actor} snapshot={snapshot} />
      {receipt}
      {isClient && (
        <p>
          <Link to="/{-$locale}/upsell" params={{ locale: localeParam(locale) }}>
            {t('success.upsellLink')}
          </Link>
        </p>
      )}
    </>
  );
}

interface CopyProps {
  actor: ServiceActor;
  snapshot: ServiceSnapshot;
  field: CopyField;
  label: string;
}

function Credential({ value, ...copy }: CopyProps & { value: string }) {
  return (
    <div className="credential">
      <dt>{copy.label}</dt>
      <dd>
        <code>{value}</code>
        <CopyButton {...copy} />
      </dd>
    </div>
  );
}

/** Copies one value; 'Copied!' shows beside it for 2.5 s and is announced. */
function CopyButton({ actor, snapshot, field, label }: CopyProps) {
  const { t } = useTranslation();
  const copied = snapshot.context.copied === field && snapshot.context.copyHint !== null;
  return (
    <>
      <button type="button" className="button small secondary" onClick={() => actor.send({ type: COPY_EVENTS[field] })}>
        {t('success.copy')}
        <span className="visually-hidden"> {label}</span>
      </button>
      <span className="copied" role="status">
        {copied && snapshot.context.copyHint ? t(`messages.${snapshot.context.copyHint}`) : ''}
      </span>
    </>
  );
}

/** The player picker and the picked player's steps: playlist URL, Xtream login or MAG portal, with a QR code of what the TV needs. */
function PlayerGuide({ actor, snapshot, product }: { actor: ServiceActor; snapshot: ServiceSnapshot; product: ClientProduct }) {
  const { t } = useTranslation();
  const picked = snapshot.context.player ? playerOf(snapshot.context.player) : null;
  const { username, password, serverhostname: host } = product;
  const login = username !== null && password !== null && host !== '' ? { username, password, host } : null;
  return (
    <section className="apps" aria-labelledby="apps-title">
      <h2 id="apps-title">{t('success.apps')}</h2>
      <p className="hint">{t('success.appsIntro')}</p>
      <fieldset className="choices players">
        <legend>{t('player.choose')}</legend>
        {PLAYERS.map((player) => (
          <label key={player.id} className="choice">
            <input type="radio" name="player" value={player.id} checked={player.id === picked?.id} onChange={() => actor.send({ type: 'player.select', player: player.id })} />
            <span>
              <strong>{player.name}</strong> <span className="hint">{player.platforms}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {picked && (
        <div className="player-steps" aria-live="polite">
          <h3>{t('player.title', { player: picked.name })}</h3>
          {login === null ? (
            <p>{t('player.notYet')}</p>
          ) : picked.kind === 'm3u' ? (
            <Steps
              steps={[t('player.m3u.open', { player: picked.name }), t('player.m3u.enter'), t('player.m3u.file', { player: picked.name })]}
              details={[{ label: t('player.m3u.address'), value: product.playlistUrl ?? '' }]}
              qr={product.playlistUrl ?? ''}
            />
          ) : picked.kind === 'xtream' ? (
            <Steps
              steps={[t('player.xtream.open', { player: picked.name }), t('player.xtream.enter'), t('player.xtream.done')]}
              details={[
                { label: t('player.xtream.server'), value: panelUrl(login.host) },
                { label: t('success.username'), value: login.username },
                { label: t('success.password'), value: login.password },
              ]}
              qr={panelUrl(login.host)}
            />
          ) : (
            <Steps
              steps={[t('player.mag.open'), t('player.mag.enter'), product.macAddress.value ? t('player.mag.deviceSaved') : t('player.mag.deviceNone')]}
              details={[
                { label: t('player.mag.portal'), value: portalUrl(login.host) },
                { label: t('player.mag.device'), value: product.macAddress.value || t('player.mag.deviceMissing') },
              ]}
              qr={portalUrl(login.host)}
            />
          )}
        </div>
      )}
    </section>
  );
}

/** Numbered steps; the values to enter sit under the second step, with the QR code of the first value. */
function Steps({ steps, details, qr }: { steps: [string, string, string]; details: { label: string; value: string }[]; qr: string }) {
  const { t } = useTranslation();
  return (
    <ol className="steps">
      <li>{steps[0]}</li>
      <li>
        {steps[1]}
        <div className="player-login">
          <dl>
            {details.map((detail) => (
              <div key={detail.label}>
                <dt>{detail.label}</dt>
                <dd>
                  <code>{detail.value}</code>
                </dd>
              </div>
            ))}
          </dl>
          {qr && <QrCode text={qr} label={t('player.qr', { url: qr })} />}
        </div>
      </li>
      <li>{steps[2]}</li>
    </ol>
  );
}

/** The device (MAC) address field and its Add button. */
function DeviceForm({ actor, snapshot }: { actor: ServiceActor; snapshot: ServiceSnapshot }) {
  const { t } = useTranslation();
  const message = useMessage();
  const { deviceAddress, deviceError } = snapshot.context;
  const saving = snapshot.matches({ ready: { device: 'saving' } });
  const saved = snapshot.matches({ ready: { device: 'saved' } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'device.save' });
  };
  return (
    <form className="device" noValidate onSubmit={submit}>
      <Field
        label={t('success.device')}
        hint={t('success.deviceHint')}
        name="macAddress"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={deviceAddress}
        readOnly={saving}
        onChange={(event) => actor.send({ type: 'device.change', value: event.target.value })}
        error={deviceError ? message(deviceError) : null}
        action={
          <button type="submit" className="button" aria-disabled={saving || undefined}>
            {saving ? t('success.savingDevice') : t('success.addDevice')}
          </button>
        }
      />
      <p className="success-text" role="status">
        {saved ? t('success.deviceSaved') : ''}
      </p>
    </form>
  );
}
