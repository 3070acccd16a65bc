import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { PriceChangeStore } from '../actors/checkout';
import { useFormat } from '../format';
import { useMessage } from '../hooks';
import { Alert } from './Feedback';

/** 409 price_changed: the server's total, shown clearly, and a button to accept it. */
export function PriceChanged({ priceChange, onConfirm }: { priceChange: PriceChangeStore; onConfirm: () => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const { money } = useFormat();
  const change = useSyncExternalStore(priceChange.subscribe, priceChange.get);
  if (!change) return <Alert>{message('api.price_changed')}</Alert>;
  const amount = money(change.amount, change.currency);
  return (
    <div className="alert" role="alert">
      <p>{t('checkout.priceChanged', { amount, previous: money(change.previous, change.currency) })}</p>
      <button
        type="button"
        className="button primary"
        onClick={() => {
          priceChange.confirm();
          onConfirm();
        }}
      >
        {t('checkout.confirmPrice', { amount })}
      </button>
    </div>
  );
}
