import { describe, expect, it } from 'vitest';
import { serviceSearch } from './search';

describe('the success page query', () => {
  it('keeps a positive integer serviceid and invoiceid (the receipt is the invoice\'s)', () => {
    expect(serviceSearch({ serviceid: '3001', invoiceid: '2001' })).toEqual({ serviceid: 3001, invoiceid: 2001 });
    expect(serviceSearch({ serviceid: 3001 })).toEqual({ serviceid: 3001 });
  });

  it('drops either one when malformed, and anything else', () => {
    expect(serviceSearch({ serviceid: '3001', invoiceid: '0' })).toEqual({ serviceid: 3001 });
    expect(serviceSearch({ serviceid: '-1', invoiceid: '2001 OR 1' })).toEqual({});
    expect(serviceSearch({ invoiceid: '12', other: 'x' })).toEqual({ invoiceid: 12 });
  });
});
