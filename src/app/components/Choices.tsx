import { useTranslation } from 'react-i18next';
import type { Currency } from '../../domain/currency';
import { takesCurrency } from '../../domain/gateway';
import { cycleKey, useFormat } from '../format';
import { GatewayIcon } from './Icons';

/** A gateway as every machine lists it. */
export interface GatewayChoice {
  module: string;
  displayname: string;
  type: string;
  /** The currencies it takes (absent: any). */
  currencies?: readonly string[];
}

// The rule lives in the domain (the renewal chart picks its gateway too); the views keep importing it from here.
export { defaultGatewayFor } from '../../domain/gateway';

/** The payment-method list: one radio per gateway, with a card or coin icon; one that does not take `currency` is shown unavailable. */
export function GatewayPicker({ gateways, selected, onSelect, disabled, currency }: { gateways: GatewayChoice[]; selected: string | null; onSelect: (module: string) => void; disabled?: boolean; currency?: string }) {
  const { t } = useTranslation();
  if (gateways.length === 0) return <p className="hint">{t('gateway.none')}</p>;
  return (
    <fieldset className="choices" disabled={disabled}>
      <legend>{t('gateway.legend')}</legend>
      {gateways.map((gateway) => {
        const unavailable = currency !== undefined && !takesCurrency(gateway, currency);
        const hintId = `gateway-${gateway.module}-unavailable`;
        return (
          <label key={gateway.module} className="choice">
            <input type="radio" name="gateway" value={gateway.module} checked={gateway.module === selected} disabled={unavailable} aria-describedby={unavailable ? hintId : undefined} onChange={() => onSelect(gateway.module)} />
            <GatewayIcon type={gateway.type} />
            <span>{gateway.displayname}</span>
            {unavailable && <small id={hintId} className="hint">{t('gateway.notInCurrency', { currency })}</small>}
          </label>
        );
      })}
    </fieldset>
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
}

/** The plan cards: one radio card per plan, with its price and billing cycle. */
export function PlanPicker({ legend, plans, selected, currency, onSelect, disabled }: { legend: string; plans: PlanChoice[]; selected: number | null; currency: Currency; onSelect: (pid: number) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const { money } = useFormat();
  return (
    <fieldset className="plans" disabled={disabled}>
      <legend>{legend}</legend>
      {plans.map((plan) => (
        <label key={plan.pid} className="plan">
          <input type="radio" name="plan" value={plan.pid} checked={plan.pid === selected} onChange={() => onSelect(plan.pid)} />
          <span className="plan-name">{plan.name}</span>
          {plan.price !== null && (
            <span className="plan-price">
              <strong>{money(plan.price, currency)}</strong> {t(`cycle.${cycleKey(plan.billingcycle)}`)}
            </span>
          )}
          {plan.description && <span className="plan-description">{plan.description}</span>}
        </label>
      ))}
    </fieldset>
  );
}
