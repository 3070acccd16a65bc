import { mailFromAddress } from '../config';
import { inSpan } from '../tracing/span';
import type { RenderedMail } from './templates';

/** One message handed to SMTP. */
export interface Envelope extends RenderedMail {
  to: string;
  /** The outbox row's message id: the same on every attempt, so a receiver can drop a repeat. */
  messageId: string;
}

/** Sends mail; rejects with the SMTP error (its `responseCode` and `permanent` say whether a retry can help). */
export interface MailTransport {
  send(envelope: Envelope): Promise<void>;
  close(): void;
}

/**
 * SMTP over SMTP_URL: smtps:// speaks TLS from the start (port 465 by default), smtp:// upgrades with
 * STARTTLS whenever the server offers it (port 587 by default). Certificates are always verified; the
 * timeouts bound one attempt well inside the worker's lease, so no other instance takes the row meanwhile.
 */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  // nodemailer is evaluated with SMTP_URL only, not at every start (~0.5 MB of the server bundle).
  const transporter = import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    tls: { rejectUnauthorized: true },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
    dnsTimeout: 15_000,
  }));
  const domain = mailFromAddress(from)?.split('@')[1] ?? 'localhost';
  return {
    send: (envelope) => inSpan('SMTP send', { 'smtp.host': url.hostname }, async () => {
      await (await transporter).sendMail({
        from,
        to: envelope.to,
        subject: envelope.subject,
        text: envelope.text,
        html: envelope.html,
        messageId: `<${envelope.messageId}@${domain}>`,
        // Transactional: out-of-office replies and the like are not sent back to it.
        headers: { 'Auto-Submitted': 'auto-generated', ...envelope.headers },
      });
    }),
    close: () => void transporter.then((transport) => transport.close()),
  };
}

/** What a failure is, for the outbox row and the log: codes only, never the server's text (it can quote the address). */
export function describeMailError(error: unknown): string {
  const { code, originalCode, responseCode, response } = (error ?? {}) as { code?: unknown; originalCode?: unknown; responseCode?: unknown; response?: unknown };
  const codeOf = (value: unknown) => (typeof value === 'string' && /^[A-Z0-9_]{1,40}$/.test(value) ? value : null);
  // The socket's own code says why a connection failed (e.g. a certificate refused: DEPTH_ZERO_SELF_SIGNED_CERT).
  const cause = codeOf(originalCode) !== codeOf(code) ? codeOf(originalCode) : null;
  const enhanced = typeof response === 'string' ? /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(response)?.[1] : undefined;
  return [codeOf(code) ?? 'ERROR', cause, typeof responseCode === 'number' ? String(responseCode) : null, enhanced].filter(Boolean).join(' ');
}

/**
 * Whether retrying this message cannot help: the server refused its addresses or its content for good
 * (5xx). A refused login or a lost connection is the server's or the setup's state, and is retried.
 */
export function isPermanentMailError(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return (code === 'EENVELOPE' || code === 'EMESSAGE') && typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
}
