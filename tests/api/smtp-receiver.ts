/** A real SMTP receiver for the mail tests (smtp-server on 127.0.0.1), with a small MIME reader for what arrives. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { createTestApp, type TestApp } from './helper';

export interface ReceivedMail {
  to: string[];
  /** Header names in lower case, values unfolded and decoded. */
  headers: Record<string, string>;
  subject: string;
  messageId: string;
  text: string;
  html: string;
  raw: string;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=). */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_whole, encoding: string, data: string) => (
    encoding.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8')
  ));
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split(/\r\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding?.toLowerCase() === 'quoted-printable') {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The text and HTML parts of a message (single part or multipart/alternative). */
export function parseMail(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(raw.slice(0, split));
  const body = raw.slice(split + 4);
  const parts: { type: string; content: string }[] = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const at = chunk.indexOf('\r\n\r\n');
      const partHeaders = parseHeaders(chunk.slice(0, at).replace(/^\r\n/, ''));
      parts.push({ type: partHeaders['content-type'] ?? '', content: decodeBody(chunk.slice(at + 4).replace(/\r\n$/, ''), partHeaders['content-transfer-encoding']) });
    }
  } else {
    parts.push({ type: headers['content-type'] ?? 'text/plain', content: decodeBody(body, headers['content-transfer-encoding']) });
  }
  return {
    to,
    headers,
    subject: headers.subject ?? '',
    messageId: headers['message-id'] ?? '',
    // SMTP carries lines ending in CRLF; read as the text they are.
    text: (parts.find((part) => part.type.startsWith('text/plain'))?.content ?? '').replace(/\r\n/g, '\n'),
    html: (parts.find((part) => part.type.startsWith('text/html'))?.content ?? '').replace(/\r\n/g, '\n'),
    raw,
  };
}

export interface Receiver {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** Answer every MAIL FROM with this temporary refusal (e.g. 451) until set back to null. */
  refuse: number | null;
  /** Mail that arrived for one address. */
  to(address: string): ReceivedMail[];
  /** Waits until `count` mails have arrived for the address (fails after timeoutMs). */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Stops listening (an outage); start() listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A fresh self-signed certificate for 127.0.0.1, valid today (made by openssl): valid in every way but trust. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tvc-smtp-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts a receiver on 127.0.0.1 (port 0 = any free port). STARTTLS is not offered unless `starttls`, in
 * which case a fresh self-signed certificate for 127.0.0.1 is used (which the checkout must refuse).
 */
export async function startReceiver({ starttls = false }: { starttls?: boolean } = {}): Promise<Receiver> {
  const tls = starttls ? selfSignedCertificate() : {};
  let server: SMTPServer;
  let port = 0;
  const receiver: Receiver = {
    port: 0,
    url: '',
    mails: [],
    refuse: null,
    to: (address) => receiver.mails.filter((mail) => mail.to.includes(address)),
    async waitFor(address, count = 1, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.to(address).length < count) {
        if (Date.now() > deadline) throw new Error(`Expected ${count} mail(s) for ${address} within ${timeoutMs} ms; got ${receiver.to(address).length}`);
        await new Promise((done) => setTimeout(done, 20));
      }
      return receiver.to(address);
    },
    stop: () => new Promise<void>((done) => server.close(() => done())),
    async start() {
      server = new SMTPServer({
        authOptional: true,
        ...tls,
        disabledCommands: starttls ? [] : ['STARTTLS'],
        logger: false,
        onMailFrom(_address, _session, callback) {
          if (receiver.refuse) return callback(Object.assign(new Error('Try again later'), { responseCode: receiver.refuse }));
          return callback();
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            receiver.mails.push(parseMail(Buffer.concat(chunks).toString('latin1'), session.envelope.rcptTo.map((rcpt) => rcpt.address)));
            callback();
          });
        },
      });
      await new Promise<void>((done, fail) => {
        server.once('error', fail);
        server.listen(port, '127.0.0.1', () => done());
      });
      port = (server.server.address() as AddressInfo).port;
      receiver.port = port;
      receiver.url = `smtp://127.0.0.1:${port}`;
    },
  };
  await receiver.start();
  return receiver;
}

export const MAIL_FROM = 'TV Checkout <no-reply@tvcheckout.test>';
/** Mail settings of a test server sending to the receiver: a short poll and retry so tests wait milliseconds. */
export const mailEnv = (receiver: Receiver, env: Record<string, string> = {}) => ({ SMTP_URL: receiver.url, MAIL_FROM, MAIL_POLL_MS: '50', MAIL_RETRY_MS: '50', ...env });

/** Polls `check` until it holds (fails after timeoutMs). */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** A test server of its own sending to a receiver of its own; close() stops both. */
export async function createMailingApp(env: Record<string, string> = {}, options: Parameters<typeof createTestApp>[1] = {}): Promise<{ t: TestApp; receiver: Receiver; close(): Promise<void> }> {
  const receiver = await startReceiver();
  const t = await createTestApp(mailEnv(receiver, env), options);
  return {
    t,
    receiver,
    async close() {
      await t.close();
      await receiver.stop();
    },
  };
}
