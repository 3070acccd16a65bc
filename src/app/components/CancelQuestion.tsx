import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

interface CancelQuestionProps {
  orderid: number | null;
  onConfirm: () => void;
  onKeep: () => void;
}

/** Cancel asks once: the question takes the focus (and is read out); Escape or "Keep my order" keeps it. */
export function CancelQuestion({ orderid, onConfirm, onKeep }: CancelQuestionProps) {
  const { t } = useTranslation();
  const question = useRef<HTMLParagraphElement>(null);
  const questionId = useId();
  useEffect(() => question.current?.focus(), []);
  return (
    <section
      className="panel confirm-cancel"
      aria-labelledby={questionId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onKeep();
      }}
    >
      <p id={questionId} ref={question} tabIndex={-1} className="question">
        {t('receipt.cancelQuestion', { order: orderid ?? '' })}
      </p>
      <div className="actions">
        <button type="button" className="button danger" onClick={onConfirm}>
          {t('receipt.confirmCancel')}
        </button>
        <button type="button" className="button secondary" onClick={onKeep}>
          {t('receipt.keepOrder')}
        </button>
      </div>
    </section>
  );
}
