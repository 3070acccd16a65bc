import type { ServerConfig } from '../config';
import type { BillingPort } from '../billing/port';
import { systemClock, type Clock } from '../clock';
import type { FraudPort } from './port';

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6: the newcomer's own machine. */
export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || ip === '::1';
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Local fraud rules:
 * 1. velocity — an IP that placed FRAUD_MAX_ORDERS_PER_IP_PER_HOUR orders in the last hour is flagged;
 * 2. FRAUD_BLOCKED_IPS — listed addresses are flagged;
 * 3. FRAUD_BLOCKED_COUNTRIES — visitors from listed countries are flagged.
 * The demo does not count loopback orders towards the velocity, so a newcomer's own test orders are not flagged.
 */
export function localFraudRules(config: ServerConfig['fraud'], billing: Pick<BillingPort, 'ordersFromIpSince'>, clock: Clock = systemClock): FraudPort {
  return {
    async assess({ ip, country }) {
      const reasons: string[] = [];
      if (config.blockedIps.includes(ip)) reasons.push('blocked_ip');
      if (config.blockedCountries.includes(country.toUpperCase())) reasons.push('blocked_country');
      if (config.countLoopback || !isLoopback(ip)) {
        const recent = await billing.ordersFromIpSince(ip, new Date(clock.now().getTime() - HOUR_MS), config.maxOrdersPerIpPerHour);
        if (recent >= config.maxOrdersPerIpPerHour) reasons.push('order_velocity');
      }
      return { valid: reasons.length === 0, reasons };
    },
  };
}
