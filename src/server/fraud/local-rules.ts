import type { ServerConfig } from '../config';
import type { BillingPort } from '../billing/port';
import type { FraudPort } from './port';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Local fraud rules:
 * 1. velocity — an IP that placed FRAUD_MAX_ORDERS_PER_IP_PER_HOUR orders in the last hour is flagged;
 * 2. FRAUD_BLOCKED_IPS — listed addresses are flagged;
 * 3. FRAUD_BLOCKED_COUNTRIES — visitors from listed countries are flagged.
 */
export function localFraudRules(config: ServerConfig['fraud'], billing: Pick<BillingPort, 'ordersFromIpSince'>): FraudPort {
  return {
    async assess({ ip, country }) {
      const reasons: string[] = [];
      if (config.blockedIps.includes(ip)) reasons.push('blocked_ip');
      if (config.blockedCountries.includes(country.toUpperCase())) reasons.push('blocked_country');
      const recent = await billing.ordersFromIpSince(ip, new Date(Date.now() - HOUR_MS));
      if (recent >= config.maxOrdersPerIpPerHour) reasons.push('order_velocity');
      return { valid: reasons.length === 0, reasons };
    },
  };
}
