import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { logSerializers, redactUrl, terminalLogStream } from './log';

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

describe('how the log reads (issue 16: raw JSON in a terminal)', () => {
  const line = JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 2, 3, 4, 5), pid: 7, hostname: 'box', msg: 'TV Checkout (demo) on http://localhost:3000/checkout/, ready in 812 ms' });

  it('at a terminal in the demo, a line reads as level and message, not JSON', async () => {
    const out = new PassThrough();
    let printed = '';
    out.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const stream = await terminalLogStream({ mode: 'demo', isTTY: true, destination: out });
    expect(stream).not.toBeNull();
    stream?.write(`${line}\n`);
    await expect.poll(() => printed).toContain('ready in 812 ms');
    expect(printed).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: TV Checkout \(demo\) on http:\/\/localhost:3000\/checkout\/, ready in 812 ms\n$/);
    expect(printed).not.toContain('{');
    expect(printed).not.toContain('hostname');
  });

  it('is JSON (no stream of its own) when stdout is no terminal, always in production, and without pino-pretty installed', async () => {
    expect(await terminalLogStream({ mode: 'demo', isTTY: false })).toBeNull();
    expect(await terminalLogStream({ mode: 'production', isTTY: true })).toBeNull();
    const missing = async () => {
      throw Object.assign(new Error("Cannot find package 'pino-pretty'"), { code: 'ERR_MODULE_NOT_FOUND' });
    };
    expect(await terminalLogStream({ mode: 'demo', isTTY: true, load: missing })).toBeNull();
  });
});
