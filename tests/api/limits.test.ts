import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract, operations } from './contract';
import { createTestApp, type TestApp } from './helper';

/** What came back on a raw connection before it closed. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text: string;
  /** Milliseconds from connecting to the server closing the connection. */
  closedAfterMs: number;
}

const REQUEST_TIMEOUT_MS = 1500;

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t?.close());

function parse(raw: string, closedAfterMs: number): RawAnswer {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  }));
  const text = rest.join('\r\n\r\n');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body, text, closedAfterMs };
}

/**
 * Opens a TCP connection, lets `talk` write to it (it may return a clean-up), and collects the bytes until
 * the connection closes: the server's close, or ours once a whole keep-alive answer has arrived.
 */
function rawExchange(talk: (write: (chunk: string) => boolean) => void | (() => void), { limitMs = 8000 } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let stop: void | (() => void);
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`No close within ${limitMs} ms; got ${JSON.stringify(Buffer.concat(chunks).toString().slice(0, 200))}`));
    }, limitMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      // A keep-alive answer: end once the body announced by Content-Length is complete.
      const answer = parse(Buffer.concat(chunks).toString('utf8'), 0);
      const length = Number(answer.headers['content-length']);
      if (Number.isFinite(length) && Buffer.byteLength(answer.text) >= length) socket.end();
    });
    // The server may close while we still write (it answered early); what it answered is what counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(guard);
      if (typeof stop === 'function') stop();
      resolve(parse(Buffer.concat(chunks).toString('utf8'), Date.now() - started));
    });
    socket.on('connect', () => {
      stop = talk((chunk) => !socket.destroyed && socket.write(chunk));
    });
  });
}

const send = (request: string) => rawExchange((write) => {
  write(request);
});

const expectErrorShape = (answer: RawAnswer, status: number, code: string) => {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.body).toEqual({ error: { code, message: expect.any(String) } });
};

/** Node's answers come before routing, so they are the same bytes for every operation; each declares them. */
const expectDeclaredByEveryOperation = (answer: RawAnswer) => {
  const declaring = operations.filter((op) => op.statuses.includes(String(answer.status)));
  expect(declaring.length).toBe(operations.length - 1);
  for (const op of declaring) assertMatchesContract(op, answer.status, answer.body);
};

describe('timeouts and limits, over real sockets', () => {
  it('sets the request, head and keep-alive timeouts on the server', () => {
    expect(t.app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    // The head's own limit (10 s) is cut to the request timeout when that is shorter.
    expect(t.app.server.headersTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(t.app.server.keepAliveTimeout).toBe(72_000);
  });

  it('closes a body trickled at 1 byte every 0.5 s with a 408 after REQUEST_TIMEOUT_MS, while other connections are served', async () => {
    const slow = rawExchange((write) => {
      write('POST /checkout/api/authMiddleware HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n');
      const trickle = setInterval(() => write(' '), 500);
      return () => clearInterval(trickle);
    });
    const others: { status: number; ms: number }[] = [];
    let slowDone = false;
    void slow.then(() => {
      slowDone = true;
    });
    while (!slowDone) {
      const started = Date.now();
      const response = await fetch(`http://127.0.0.1:${port}/checkout/api/getGateway`);
      await response.text();
      others.push({ status: response.status, ms: Date.now() - started });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answer = await slow;
    expectErrorShape(answer, 408, 'request_timeout');
    expect(answer.headers.connection).toBe('close');
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS);
    // Node checks for late requests every quarter of the timeout (here 375 ms).
    expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1000);
    expect(others.length).toBeGreaterThanOrEqual(5);
    expect(others.every((other) => other.status === 200)).toBe(true);
    expect(Math.max(...others.map((other) => other.ms))).toBeLessThan(1000);
    expectDeclaredByEveryOperation(answer);
  });

  it('closes a head that never completes with a 408', async () => {
    const answer = await rawExchange((write) => {
      write('GET /checkout/api/getProducts HTTP/1.1\r\nHost: localhost\r\n');
      const trickle = setInterval(() => write('X-Slow: 1\r\n'), 300);
      return () => clearInterval(trickle);
    });
    expectErrorShape(answer, 408, 'request_timeout');
    expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1000);
  });

  it('answers a 20 kB header with 431 in the error shape, on every operation\'s path', async () => {
    const big = 'a'.repeat(20 * 1024);
    for (const op of operations) {
      const answer = await send(`${op.method} ${op.path.replace('{gateway}', 'sandbox')} HTTP/1.1\r\nHost: localhost\r\nX-Big: ${big}\r\n\r\n`);
      expectErrorShape(answer, 431, 'headers_too_large');
      expect(answer.headers.connection).toBe('close');
      if (op.operationId !== 'health') assertMatchesContract(op, 431, answer.body);
    }
  });

  it('answers a malformed request line with 400 in the error shape', async () => {
    const answer = await send('GET /checkout/api/getProducts HTTP/1.1 junk\r\nHost: localhost\r\n\r\n');
    expectErrorShape(answer, 400, 'bad_request');
    const badHeader = await send('GET /checkout/api/getProducts HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n');
    expectErrorShape(badHeader, 400, 'bad_request');
  });

  it('answers a malformed HEAD request with its status and headers but no body (RFC 9110 §9.3.2)', async () => {
    for (const request of ['HEAD /checkout/ HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n', 'HEAD /checkout/api/getProducts HTTP/1.1 junk\r\nHost: localhost\r\n\r\n', `HEAD /checkout/ HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'x'.repeat(20 * 1024)}\r\n\r\n`]) {
      const answer = await send(request);
      expect([400, 431], request.slice(0, 40)).toContain(answer.status);
      expect(answer.text, request.slice(0, 40)).toBe('');
    }
    // A GET with the same fault still gets the body that says why.
    expectErrorShape(await send('GET /checkout/ HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n'), 400, 'bad_request');
  });

  it('answers a page URL that cannot be decoded with the error page in HTML, and HEAD of it without a body', async () => {
    const answer = await send('GET /checkout/%E0%A4%A HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.text).toMatch(/^<!doctype html>/i);
    expect(answer.text).toContain('Error 400');
    const head = await send('HEAD /checkout/%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(head.status).toBe(400);
    expect(head.text).toBe('');
  });

  it('answers malformed JSON with 400 in the error shape', async () => {
    const body = '{"email": ';
    const answer = await send(`POST /checkout/api/authMiddleware HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expectErrorShape(answer, 400, 'bad_request');
  });

  it('answers an unknown API path with 404 in the error shape', async () => {
    const answer = await send('GET /checkout/api/no-such-call HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expectErrorShape(answer, 404, 'not_found');
  });

  it('answers a URL that cannot be decoded with 400 in the error shape', async () => {
    const answer = await send('POST /checkout/api/webhooks/%zz HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    expectErrorShape(answer, 400, 'bad_request');
  });

  it('answers a 70 kB body with 413 in the error shape, with or without a Content-Length', async () => {
    const body = JSON.stringify({ email: 'a@b.test', padding: 'x'.repeat(70 * 1024) });
    const declared = await send(`POST /checkout/api/authMiddleware HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expectErrorShape(declared, 413, 'payload_too_large');
    const chunked = await send(`POST /checkout/api/authMiddleware HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    expectErrorShape(chunked, 413, 'payload_too_large');
  });

  it('answers a text/plain body to a JSON operation with 415 in the error shape', async () => {
    const body = 'email=a@b.test';
    const answer = await send(`POST /checkout/api/authMiddleware HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expectErrorShape(answer, 415, 'unsupported_media_type');
  });
});
