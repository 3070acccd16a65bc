import { describe, expect, it } from 'vitest';
import { isLoopback, localFraudRules } from './local-rules';

/** A store that has seen `recent` orders from every address within the hour. */
const seen = (recent: number) => ({ ordersFromIpSince: async () => recent });
const rules = (countLoopback: boolean) => ({ maxOrdersPerIpPerHour: 5, blockedIps: [], blockedCountries: [], countLoopback });

describe('the order velocity rule and loopback addresses', () => {
  it('knows loopback: 127.0.0.0/8, ::1 and their IPv4-mapped form, nothing else', () => {
    expect(['127.0.0.1', '127.5.6.7', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['128.0.0.1', '10.0.0.1', '::2', '::ffff:10.0.0.1', '1127.0.0.1', '127.0.0.1.example'].map(isLoopback)).toEqual([false, false, false, false, false, false]);
  });

  it('demo: a sixth order from this machine within the hour is not flagged', async () => {
    expect(await localFraudRules(rules(false), seen(5)).assess({ ip: '127.0.0.1', country: 'MA' })).toEqual({ valid: true, reasons: [] });
    expect(await localFraudRules(rules(false), seen(5)).assess({ ip: '::1', country: 'MA' })).toEqual({ valid: true, reasons: [] });
  });

  it('demo: other addresses still count', async () => {
    expect(await localFraudRules(rules(false), seen(5)).assess({ ip: '203.0.113.9', country: 'MA' })).toEqual({ valid: false, reasons: ['order_velocity'] });
  });

  it('production counts every address, loopback included', async () => {
    expect(await localFraudRules(rules(true), seen(5)).assess({ ip: '127.0.0.1', country: 'MA' })).toEqual({ valid: false, reasons: ['order_velocity'] });
    expect(await localFraudRules(rules(true), seen(4)).assess({ ip: '127.0.0.1', country: 'MA' })).toEqual({ valid: true, reasons: [] });
  });
});
