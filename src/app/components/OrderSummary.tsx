import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { takesCurrency } from '../../domain/gateway';
import type { GatewayChoice } from './Choices';

/** One priced line of the order: a label and its formatted amount. */
export interface SummaryLine {
  label: string;
  amount: string;
}

/**
 * What the summary says under the total: the page the chosen payment method takes the shopper to, or,
 * when no payment method takes the currency (or none loaded), why the order cannot be paid.
 */
export function usePaymentNote(gateways: GatewayChoice[], selected: string | null, currency: string): { hint: string | null; reason: string | null } {
  const { t } = useTranslation();
  if (!gateways.some((gateway) => takesCurrency(gateway, currency))) {
    return { hint: null, reason: gateways.length === 0 ? t('gateway.none') : t('summary.noGatewayForCurrency', { currency }) };
  }
  const chosen = gateways.find((gateway) => gateway.module === selected && takesCurrency(gateway, currency));
  return { hint: chosen ? t('summary.payOn', { gateway: chosen.displayname }) : null, reason: null };
}

interface OrderSummaryProps {
  title: string;
  /** Null until the order is priced: a placeholder keeps the box's size, so nothing moves when the price comes. */
  lines: SummaryLine[] | null;
  totalLabel: string;
  /** The total's value cell (announced as it changes by the caller's output). */
  total: ReactNode;
  /** The total as the phone's bottom bar repeats it, with its billing note; null when there is none. */
  barTotal: { amount: string; note?: string } | null;
  /** Under the total: what happens next (the payment method's page). */
  hint?: string | null;
  /** Why the order cannot be paid: shown instead of the hint, and the pay button points to it. */
  reason?: string | null;
  /** A refused order's messages, between the summary and the pay button; brought into view when they appear. */
  alert?: ReactNode;
  /** The one pay button, given the id of the text that says why it is blocked. */
  button: (describedBy: string | undefined) => ReactNode;
}

/**
 * The order beside the choices. From 960 px its lines and total are the right pane and stay in view, and the
 * pay button follows the last choice (styles.css); below, its lines follow the choices and its pay block (total
 * and the one pay button) is a bar fixed at the bottom of the screen, so there is never a second pay button.
 */
export function OrderSummary({ title, lines, totalLabel, total, barTotal, hint, reason, alert, button }: OrderSummaryProps) {
  const titleId = useId();
  const reasonId = useId();
  const alertBox = useRef<HTMLDivElement>(null);
  const reasonBox = useRef<HTMLParagraphElement>(null);
  const alerting = Boolean(alert);
  // On a phone the summary may be below the screen when the bar's button is pressed: show its answer.
  useEffect(() => {
    if (alerting) alertBox.current?.scrollIntoView?.({ block: 'nearest' });
  }, [alerting]);
  return (
    <div className="order-summary">
      <section className="summary" aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        {lines === null ? (
          <div className="summary-placeholder" />
        ) : (
          <dl>
            {lines.map((line, index) => (
              <div className="line" key={index}>
                <dt>{line.label}</dt>
                <dd>{line.amount}</dd>
              </div>
            ))}
            <div className="line total">
              <dt>{totalLabel}</dt>
              <dd>{total}</dd>
            </div>
          </dl>
        )}
        {reason ? (
          <p className="banner warning" id={reasonId} ref={reasonBox}>
            {reason}
          </p>
        ) : (
          hint && <p className="hint pay-hint">{hint}</p>
        )}
      </section>
      <div className="summary-alerts" ref={alertBox}>
        {alert}
      </div>
      {/* A press on the blocked button shows why, also when the summary is below a phone's screen. */}
      <div className="pay-bar" onClickCapture={reason ? () => reasonBox.current?.scrollIntoView?.({ block: 'nearest' }) : undefined}>
        {/* A visual repeat of the total just read in the summary: hidden from screen readers, and from 960 px. */}
        {barTotal && (
          <p className="pay-bar-total" aria-hidden="true">
            <strong>{barTotal.amount}</strong>
            {barTotal.note && <span className="hint">{barTotal.note}</span>}
          </p>
        )}
        {button(reason ? reasonId : undefined)}
      </div>
    </div>
  );
}
