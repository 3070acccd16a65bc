import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessage } from '../hooks';
import { CancelQuestion } from './CancelQuestion';
import { Alert } from './Feedback';

interface UnpaidOrderProps {
  orderid: number;
  cancelling: boolean;
  /** Cancel asks once: the question replaces the two buttons until the shopper answers. */
  asking: boolean;
  /** The server's message when the cancel failed. */
  error: string | null;
  onContinue: () => void;
  onCancel: () => void;
  onConfirmCancel: () => void;
  onKeep: () => void;
}

/** "You have an unpaid order #N": above the form, so a shopper back from the payment page does not order twice. */
export function UnpaidOrder({ orderid, cancelling, asking, error, onContinue, onCancel, onConfirmCancel, onKeep }: UnpaidOrderProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const titleId = useId();
  const cancelButton = useRef<HTMLButtonElement>(null);
  const kept = useRef(false);
  // Kept: the focus goes back to the button that asked.
  useEffect(() => {
    if (!asking && kept.current) {
      kept.current = false;
      cancelButton.current?.focus();
    }
  }, [asking]);
  return (
    <section className="banner warning unpaid-order" aria-labelledby={titleId}>
      <h2 className="visually-hidden" id={titleId}>
        {t('unpaidOrder.title')}
      </h2>
      <p>{t('unpaidOrder.text', { orderid })}</p>
      {error && <Alert>{message(error)}</Alert>}
      {asking ? (
        <CancelQuestion
          orderid={orderid}
          onConfirm={onConfirmCancel}
          onKeep={() => {
            kept.current = true;
            onKeep();
          }}
        />
      ) : (
        <div className="actions">
          <button type="button" className="button" onClick={onContinue}>
            {t('unpaidOrder.continue')}
          </button>
          <button ref={cancelButton} type="button" className="button secondary" aria-disabled={cancelling || undefined} onClick={cancelling ? undefined : onCancel}>
            {cancelling ? t('unpaidOrder.cancelling') : t('unpaidOrder.cancel')}
          </button>
        </div>
      )}
    </section>
  );
}
