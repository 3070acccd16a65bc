import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { CheckoutUser } from '../../../machines/checkout.machine';
import { Notice } from '../components/Notice';
import { OrderNotice } from '../components/OrderNotice';
import { PageTitle } from '../components/PageTitle';
import { localeParam, useLocale } from '../locale';
import type { EntrySearch } from '../search';
import { useCheckoutActor, useCheckoutUser } from './checkout-actor';

const route = getRouteApi('/{-$locale}/creatingOrder');

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

function AutomaticOrder({ search, user }: { search: EntrySearch; user: CheckoutUser | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locale = useLocale();
  const { actor } = useCheckoutActor(search, user);
  const fellBack = useSelector(actor, (snapshot) => snapshot.matches('ready'));
  const notFound = useSelector(actor, (snapshot) => snapshot.matches('notFound'));
  const link = useSelector(actor, (snapshot) => snapshot.context.payment?.link ?? null);

  useEffect(() => {
    // The automatic order stopped silently: the form, pre-filled from the same link.
    if (fellBack) {
      const { auto_redirect: _autoRedirect, ...rest } = search;
      void navigate({ to: '/{-$locale}', params: { locale: localeParam(locale) }, search: rest, replace: true });
    }
  }, [fellBack, navigate, locale, search]);

  return notFound ? <p>{t('checkout.noProducts')}</p> : <OrderNotice link={link} />;
}
