import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { CheckoutUser } from '../../../machines/checkout.machine';
import type { EntryQuery } from '../../domain/entry-query';
import { Notice } from '../components/Notice';
import { OrderNotice } from '../components/OrderNotice';
import { PageTitle } from '../components/PageTitle';
import { localeParam, useLocale } from '../locale';
import { Alert } from '../components/Feedback';
import { useMessage } from '../hooks';
import { lazyComponent } from '../lazy';
import { useCheckoutActor, useCheckoutUser, usePlaceOrder } from './checkout-actor';

const route = getRouteApi('/{-$locale}/creatingOrder');

const PriceChanged = lazyComponent(() => import('../components/PriceChanged').then((module) => module.PriceChanged));

/**
 * The order-creation notice: the landing page of an automatic-order link (email, pid,
 * auto_redirect=true). The order is placed and the payment page opens; if it cannot be, the form takes over.
 */
export function CreatingOrderView() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const user = useCheckoutUser();
  return (
    <section className="page">
      <PageTitle>{t('creatingOrder.title')}</PageTitle>
      {user === undefined ? (
        <Notice>
          <p>{t('creatingOrder.text')}</p>
        </Notice>
      ) : (
        <AutomaticOrder search={search} user={user} />
      )}
    </section>
  );
}

function AutomaticOrder({ search, user }: { search: EntryQuery; user: CheckoutUser | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locale = useLocale();
  const { actor } = useCheckoutActor(search, user);
  const fellBack = useSelector(actor, (snapshot) => snapshot.matches('ready'));
  const stop = useSelector(actor, (snapshot) => snapshot.context.autoOrderStop);
  const notFound = useSelector(actor, (snapshot) => snapshot.matches('notFound'));
  const link = useSelector(actor, (snapshot) => snapshot.context.payment?.link ?? null);
  const message = useMessage();
  const placing = usePlaceOrder(actor);
  const priceChange = placing?.snapshot.matches('priceChanged') ? placing.snapshot.context.priceChange : null;

  useEffect(() => {
    // The automatic order stopped: the form, pre-filled from the same link, says why.
    if (fellBack) {
      const { auto_redirect: _autoRedirect, ...rest } = search;
      void navigate({ to: '/{-$locale}', params: { locale: localeParam(locale) }, search: rest, replace: true, state: stop ? { autoOrderStop: stop } : {} });
    }
  }, [fellBack, stop, navigate, locale, search]);

  if (notFound) return <p>{t('checkout.noProducts')}</p>;
  // The link's total was priced differently: confirm it here, or refuse it and go on to the form.
  if (priceChange) {
    return (
      <Suspense fallback={<Alert>{message('api.price_changed')}</Alert>}>
        <PriceChanged change={priceChange} onConfirm={() => placing!.placeOrder.send({ type: 'price.confirm' })} onCancel={() => placing!.placeOrder.send({ type: 'price.cancel' })} />
      </Suspense>
    );
  }
  return <OrderNotice link={link} />;
}
