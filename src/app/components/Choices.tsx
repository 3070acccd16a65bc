import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Currency } from '../../domain/currency';
import { takesCurrency } from '../../domain/gateway';
import type { MonthlyComparison } from '../../domain/pricing';
import { PAYMENT_MARK_NAMES, type PaymentMark, type PlanBadge } from '../../domain/showcase';
import { cycleKey, useFormat } from '../format';
import { GatewayIcon } from './Icons';

/** A gateway as every machine lists it. */
export interface GatewayChoice {
  module: string;
  displayname: string;
  type: string;
  /** The currencies it takes (absent: any). */
  currencies?: readonly string[];
  /** The marks of what it takes (card brands, wallets, coins); absent or empty: its card or coin icon. */
  marks?: readonly PaymentMark[];
}

// The rule lives in the domain (the renewal chart picks its gateway too); the views keep importing it from here.
export { defaultGatewayFor } from '../../domain/gateway';

/**
 * The payment-method list: one radio per gateway, with a card or coin icon; one that does not take `currency` is shown unavailable.
 * Rendered again only when its props change (not on each keystroke elsewhere in the form).
 */
export const GatewayPicker = memo(function GatewayPicker({ gateways, selected, onSelect, disabled, currency }: { gateways: GatewayChoice[]; selected: string | null; onSelect: (module: string) => void; disabled?: boolean; currency?: string }) {
  const { t } = useTranslation();
  if (gateways.length === 0) return <p className="hint">{t('gateway.none')}</p>;
  return (
    <fieldset className="choices" disabled={disabled}>
      <legend>{t('gateway.legend')}</legend>
      {gateways.map((gateway) => {
        const unavailable = currency !== undefined && !takesCurrency(gateway, currency);
        const hintId = `gateway-${gateway.module}-unavailable`;
        const nameId = `gateway-${gateway.module}-name`;
        const marksId = `gateway-${gateway.module}-marks`;
        const marks = gateway.marks ?? [];
        const describedBy = [marks.length ? marksId : null, unavailable ? hintId : null].filter(Boolean).join(' ');
        return (
          <label key={gateway.module} className="choice">
            {/* Named by the method alone; the marks describe it, so "Card" stays the radio's name. */}
            <input type="radio" name="gateway" value={gateway.module} checked={gateway.module === selected} disabled={unavailable} aria-labelledby={nameId} aria-describedby={describedBy || undefined} onChange={() => onSelect(gateway.module)} />
            {marks.length === 0 && <GatewayIcon type={gateway.type} />}
            <span id={nameId}>{gateway.displayname}</span>
            {marks.length > 0 && <PaymentMarks id={marksId} marks={marks} />}
            {unavailable && <small id={hintId} className="hint">{t('gateway.notInCurrency', { currency })}</small>}
          </label>
        );
      })}
    </fieldset>
  );
});

/** The marks of what a payment method takes, drawn by local SVG files (styles/choices.css), each named by its brand. */
function PaymentMarks({ id, marks }: { id: string; marks: readonly PaymentMark[] }) {
  return (
    <span className="payment-marks" id={id}>
      {marks.map((mark) => (
        <span key={mark} className={`payment-mark mark-${mark}`} role="img" aria-label={PAYMENT_MARK_NAMES[mark]} />
      ))}
    </span>
  );
}

/** A plan as the plan cards show it. */
export interface PlanChoice {
  pid: number;
  name: string;
  description?: string;
  billingcycle: string;
  /** Null when the plan has no price in the currency. */
  price: number | null;
  /** A longer plan's price a month and saving against the monthly plan (the pricing rule's). */
  comparison?: MonthlyComparison | null;
  /** True for a plan paid once that never renews. */
  lifetime?: boolean;
  /** The catalogue's word that singles the plan out. */
  badge?: PlanBadge;
}

/** The plan cards: one radio card per plan, with its price and billing cycle, what a longer plan comes to a month, and its badge; rendered again only when its props change. */
export const PlanPicker = memo(function PlanPicker({ legend, plans, selected, currency, onSelect, disabled }: { legend: string; plans: PlanChoice[]; selected: number | null; currency: Currency; onSelect: (pid: number) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const { money } = useFormat();
  return (
    <fieldset className="plans" disabled={disabled}>
      <legend>{legend}</legend>
      {plans.map((plan) => (
        <label key={plan.pid} className="plan">
          <input type="radio" name="plan" value={plan.pid} checked={plan.pid === selected} onChange={() => onSelect(plan.pid)} />
          <span className="plan-name">{plan.name}</span>
          {plan.badge && <span className="plan-badge">{t(`plan.badge.${plan.badge}`)}</span>}
          {plan.price !== null && (
            <span className="plan-price">
              <strong>{money(plan.price, currency)}</strong> {t(`cycle.${cycleKey(plan.billingcycle)}`)}
            </span>
          )}
          {plan.comparison && (
            <span className="plan-per-month">
              {t('plan.perMonth', { price: money(plan.comparison.perMonth, currency) })}
              {plan.comparison.savingPercent !== null && <> · <span className="plan-saving">{t('plan.save', { percent: plan.comparison.savingPercent })}</span></>}
            </span>
          )}
          {plan.lifetime && plan.price !== null && <span className="plan-per-month">{t('plan.lifetime')}</span>}
          {plan.description && <span className="plan-description">{plan.description}</span>}
        </label>
      ))}
    </fieldset>
  );
});
