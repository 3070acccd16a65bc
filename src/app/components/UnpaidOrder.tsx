import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessage } from '../hooks';
import { Alert } from './Feedback';

interface UnpaidOrderProps {
  orderid: number;
  cancelling: boolean;
  /** The server's message when the cancel failed. */
  error: string | null;
  onContinue: () => void;
  onCancel: () => void;
}

/** "You have an unpaid order #N": above the form, so a shopper back from the payment page does not order twice. */
export function UnpaidOrder({ orderid, cancelling, error, onContinue, onCancel }: UnpaidOrderProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const titleId = useId();
  return (
    <section className="banner warning unpaid-order" aria-labelledby={titleId}>
      <h2 className="visually-hidden" id={titleId}>
        {t('unpaidOrder.title')}
      </h2>
      <p>{t('unpaidOrder.text', { orderid })}</p>
      {error && <Alert>{message(error)}</Alert>}
      <div className="actions">
        <button type="button" className="button" onClick={onContinue}>
          {t('unpaidOrder.continue')}
        </button>
        <button type="button" className="button secondary" aria-disabled={cancelling || undefined} onClick={cancelling ? undefined : onCancel}>
          {cancelling ? t('unpaidOrder.cancelling') : t('unpaidOrder.cancel')}
        </button>
      </div>
    </section>
  );
}
