/**
 * The demo's outbox page: without SMTP_URL the demo keeps its mail in the outbox, and a newcomer reads it
 * here, offline. Production has no such page (404): it would show every shopper's mail to anyone.
 */
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Database } from '../db/connect';
import { mailOutbox } from '../db/schema';
import type { OutboxRow } from './outbox';
import type { RenderedMail } from './templates';
import { escapeHtml, serverPage } from '../html-page';

export interface DemoOutboxDeps {
  db: Database;
  render(row: OutboxRow): Promise<RenderedMail | null>;
  /** Demo mode: the page exists; otherwise every path of it answers 404. */
  demo: boolean;
  /** The sender the mail goes out as. */
  from: string;
  /** Whether a worker sends the outbox (SMTP_URL set), for the page's explanation. */
  sending: boolean;
}

export const DEMO_OUTBOX_PATH = '/checkout/demo/outbox';
/** The page lists the newest messages; older ones stay in the store. */
const LISTED = 100;

const OUTBOX_CSS = [
  'main{max-width:60rem;margin:0 auto;padding:1.5rem}',
  'table{border-collapse:collapse;width:100%}',
  'th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid GrayText;vertical-align:top}',
  'pre{white-space:pre-wrap;border:1px solid GrayText;border-radius:8px;padding:1rem;font-size:.9rem}',
  'iframe{width:100%;height:36rem;border:1px solid GrayText;border-radius:8px;background:#fff}',
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}',
  'dt{font-weight:600}',
].join('\n');

/** Demo mode only, so the banner is always there. */
const page = (title: string, body: string) => serverPage({ title, site: 'Demo outbox', css: OUTBOX_CSS, body, demo: true });

const when = (date: Date | null) => (date ? date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—');

/** A message as the page shows it: its text if it is still to be sent, and whether it never will be. */
interface Shown {
  mail: RenderedMail | null;
  /** Skipped by the worker, or still queued but no longer to be sent (a reminder for an order or a renewal paid since). */
  skipped: boolean;
}

/** The status of a row as a newcomer reads it. */
function statusText(row: OutboxRow, { skipped }: Shown): string {
  if (row.status === 'sent') return `sent ${when(row.sentAt)}`;
  if (row.status === 'failed') return `given up (${row.lastError ?? 'error'})`;
  // Without a worker (the demo without SMTP_URL) nobody marks such a row skipped: it is shown as what it is.
  if (skipped) return 'skipped: no longer to be sent (e.g. a reminder for an order or a renewal paid since)';
  // A recovery reminder waits for RECOVERY_AFTER_MIN before it may go.
  if (row.attempts === 0 && row.nextAttemptAt.getTime() > Date.now()) return `due ${when(row.nextAttemptAt)}`;
  return row.attempts === 0 ? 'waiting in the outbox' : `waiting, ${row.attempts} attempt${row.attempts === 1 ? '' : 's'} (${row.lastError ?? 'in progress'})`;
}

export async function demoOutboxPages(app: FastifyInstance, deps: DemoOutboxDeps): Promise<void> {
  const notFound = (reply: FastifyReply, path: string) => reply.code(404).send({ error: { code: 'not_found', message: `No route GET ${path}.` } });
  const html = (reply: FastifyReply, status: number, body: string) => reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
  const rowById = async (id: string) => {
    if (!/^[1-9]\d{0,9}$/.test(id)) return null;
    const [row] = await deps.db.select().from(mailOutbox).where(eq(mailOutbox.id, Number(id)));
    return row ?? null;
  };
  const renderOrNull = async (row: OutboxRow) => (row.payload ? deps.render(row).catch(() => null) : null);
  /** The renderer answers null for a message no longer to be sent (the worker would mark it skipped); a failed render is not that. */
  const show = async (row: OutboxRow): Promise<Shown> => {
    if (row.status === 'skipped') return { mail: null, skipped: true };
    if (row.status !== 'pending' || !row.payload) return { mail: await renderOrNull(row), skipped: false };
    try {
      const mail = await deps.render(row);
      return { mail, skipped: mail === null };
    } catch {
      return { mail: null, skipped: false };
    }
  };

  app.get(DEMO_OUTBOX_PATH, async (request, reply) => {
    if (!deps.demo) return notFound(reply, DEMO_OUTBOX_PATH);
    const rows = await deps.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(LISTED);
    const items = await Promise.all(rows.map(async (row) => {
      const shown = await show(row);
      const subject = shown.mail?.subject ?? (shown.skipped || row.status === 'pending' ? '(not to be sent any more)' : '(sent: its text is no longer kept)');
      return `<tr><td>${row.id}</td><td>${when(row.createdAt)}</td><td>${escapeHtml(row.recipient ?? '—')}</td><td><a href="${DEMO_OUTBOX_PATH}/${row.id}">${escapeHtml(subject)}</a></td><td>${escapeHtml(row.kind)}</td><td>${escapeHtml(row.locale)}</td><td>${escapeHtml(statusText(row, shown))}</td></tr>`;
    }));
    const how = deps.sending
      ? 'SMTP_URL is set: a worker sends these messages and then removes their text from the store.'
      : 'SMTP_URL is not set, so nothing is sent: every message the checkout writes stays here.';
    const table = rows.length
      ? `<table><caption class="visually-hidden">Messages, newest first</caption><thead><tr><th scope="col">#</th><th scope="col">Written</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Kind</th><th scope="col">Locale</th><th scope="col">Status</th></tr></thead><tbody>${items.join('')}</tbody></table>`
      : '<p>No mail yet. Place an order on the checkout: its receipt appears here.</p>';
    return html(reply, 200, page('Outbox', `<h1>Demo outbox</h1><p>${how} Sender: ${escapeHtml(deps.from)}.</p>${table}<p><a href="/checkout/">Back to the checkout</a></p>`));
  });

  app.get<{ Params: { id: string } }>(`${DEMO_OUTBOX_PATH}/:id`, async (request, reply) => {
    const path = `${DEMO_OUTBOX_PATH}/${request.params.id}`;
    if (!deps.demo) return notFound(reply, path);
    const row = await rowById(request.params.id);
    if (!row) return html(reply, 404, page('Message not found', `<h1>Message not found</h1><p>The outbox has no message ${escapeHtml(request.params.id)}.</p><p><a href="${DEMO_OUTBOX_PATH}">Back to the outbox</a></p>`));
    const shown = await show(row);
    const { mail } = shown;
    const facts = `<dl><dt>To</dt><dd>${escapeHtml(row.recipient ?? '—')}</dd><dt>From</dt><dd>${escapeHtml(deps.from)}</dd><dt>Kind</dt><dd>${escapeHtml(row.kind)}</dd><dt>Locale</dt><dd>${escapeHtml(row.locale)}</dd><dt>Message key</dt><dd>${escapeHtml(row.messageKey)}</dd><dt>Status</dt><dd>${escapeHtml(statusText(row, shown))}</dd></dl>`;
    const body = mail
      ? `<h2>HTML part</h2><iframe title="The HTML part of the message" sandbox src="${DEMO_OUTBOX_PATH}/${row.id}/html"></iframe><h2>Text part</h2><pre>${escapeHtml(mail.text)}</pre>`
      : `<p>${shown.skipped || row.status === 'pending' ? 'This message is no longer to be sent (its order or renewal invoice was paid or closed, or its reminders were turned off).' : 'This message was sent or skipped; its text is no longer kept in the store.'}</p>`;
    return html(reply, 200, page(mail?.subject ?? `Message ${row.id}`, `<h1>${escapeHtml(mail?.subject ?? `Message ${row.id}`)}</h1>${facts}${body}<p><a href="${DEMO_OUTBOX_PATH}">Back to the outbox</a></p>`));
  });

  // The HTML part alone, framed by the message page: no script runs in it, and only this server may frame it.
  app.get<{ Params: { id: string } }>(`${DEMO_OUTBOX_PATH}/:id/html`, async (request, reply) => {
    const path = `${DEMO_OUTBOX_PATH}/${request.params.id}/html`;
    if (!deps.demo) return notFound(reply, path);
    const row = await rowById(request.params.id);
    const mail = row ? await renderOrNull(row) : null;
    if (!mail) return notFound(reply, path);
    reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'");
    return html(reply, 200, mail.html);
  });
}
