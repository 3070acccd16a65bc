import { describe, expect, it } from 'vitest';
import { logSerializers, redactUrl } from './log';

describe('what a log line may carry', () => {
  it('a URL keeps its route and loses its query string and payment-link ids', () => {
    expect(redactUrl('/checkout/?email=ann%40mail.test&pid=1')).toBe('/checkout/?[redacted]');
    expect(redactUrl('/checkout/sandbox/pay/pay_AbC123xyz456789012345')).toBe('/checkout/sandbox/pay/[redacted]');
    expect(redactUrl('/checkout/sandbox/pay/pay_AbC123xyz456789012345?decision=pay')).toBe('/checkout/sandbox/pay/[redacted]?[redacted]');
    expect(redactUrl('/checkout/api/getProducts')).toBe('/checkout/api/getProducts');
  });

  it('a failed query is logged without its parameters, in the error and in its cause', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "clients_email_unique"'), { code: '23505', detail: 'Key (email)=(ann@mail.test) already exists.' });
    const error = new Error('Failed query: insert into "clients" ("email") values ($1)\nparams: ann@mail.test', { cause });
    const logged = JSON.stringify(logSerializers.err(error));
    expect(logged).not.toContain('ann@mail.test');
    expect(logged).toContain('params: [redacted]');
    expect(logged).toContain('23505');
  });
});
