import { useTranslation } from 'react-i18next';
import type { PriceChange } from '../../../machines/place-order.machine';
import { useFormat } from '../format';

/** 409 price_changed, from the placeOrder chart: the server's total, to confirm (primary) or refuse. */
export function PriceChanged({ change, onConfirm, onCancel }: { change: PriceChange; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const { money } = useFormat();
  const amount = money(change.amount, change.currency);
  return (
    <div className="alert" role="alert">
      <p>{t('checkout.priceChanged', { amount, previous: money(change.previous, change.currency) })}</p>
      <button type="button" className="button primary" onClick={onConfirm}>
        {t('checkout.confirmPrice', { amount })}
      </button>{' '}
      <button type="button" className="button secondary" onClick={onCancel}>
        {t('checkout.cancelPrice')}
      </button>
    </div>
  );
}
