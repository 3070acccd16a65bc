import { describe, expect, it } from 'vitest';
import { entryQuery, isEntryFlagOn } from './entry-query';

describe('the entry query (spec section 2: promocode, email, pid, auto_redirect, extraconnect, proxyprotect, aff_id)', () => {
  it('keeps every entry parameter of its shape, trimmed, and nothing else', () => {
    const link = { promocode: ' HALFYEAR20 ', email: 'ann@example.com', pid: '2', auto_redirect: 'true', extraconnect: '1', proxyprotect: 'false', aff_id: 'partner-1', utm_source: 'mail' };
    expect(entryQuery(link)).toEqual({ promocode: 'HALFYEAR20', email: 'ann@example.com', pid: '2', auto_redirect: 'true', extraconnect: '1', proxyprotect: 'false', aff_id: 'partner-1' });
  });

  it('keeps the parameters in the order given, and no inherited name', () => {
    expect(Object.keys(entryQuery({ pid: '2', email: 'ann@example.com', constructor: 'x', toString: '1' }))).toEqual(['pid', 'email']);
  });

  it('keeps a pid a router parsed as a number, as its text', () => {
    expect(entryQuery({ pid: 2 })).toEqual({ pid: '2' });
  });

  // The automatic order needs a numeric pid (spec section 5): a product id is a positive whole number.
  it.each(['two', '2a', '0', '-2', '1.5', '', ' '])('drops the pid %j, which is no product id', (pid) => {
    expect(entryQuery({ pid, email: 'ann@example.com' })).toEqual({ email: 'ann@example.com' });
  });

  it('drops an auto_redirect other than true or false, and an add-on flag other than true, false, 1 or 0', () => {
    expect(entryQuery({ auto_redirect: '1', extraconnect: 'yes', proxyprotect: 'on' })).toEqual({});
  });

  it('drops a promo code or affiliate id with characters a code never has', () => {
    expect(entryQuery({ promocode: 'HALF YEAR', aff_id: 'partner;1' })).toEqual({});
  });

  it('reads an add-on flag as on for true and 1 only', () => {
    expect(['true', '1', 'false', '0', undefined].map(isEntryFlagOn)).toEqual([true, true, false, false, false]);
  });
});
