/**
 * The one-click opt-out of the reminders a mail sends about one thing (an order's recovery reminder, a service's
 * renewal notices): its signed link, the check of a token, and the small page a GET or an RFC 8058 POST answers.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE, type Locale } from '../domain/locale';
import { CARD_CSS, escapeHtml, serverPage } from './html-page';
import { MAIL_TEXTS } from './mail/texts';
import { localePath } from './mail/templates';

const OPT_OUT_TOKEN = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/;

export interface OptOutLinks {
  /** The page's path, outside the API (a page a person opens, and a POST a mail client sends). */
  path: string;
  /** The link that turns off the reminders about one id: signed, so no one stops another's by guessing ids. */
  url(id: number): string;
  /** The id a token was signed for here; null for a token that is not one of ours for this purpose. */
  verify(token: string): number | null;
}

/** Opt-out links for one purpose (e.g. recovery-opt-out): keyed with `secret`, and the purpose keeps each apart from the others. */
export function optOutLinks(secret: string, publicUrl: string, path: string, purpose: string): OptOutLinks {
  const sign = (id: number) => createHmac('sha256', secret).update(`${purpose}:${id}`).digest('base64url');
  return {
    path,
    url: (id) => `${publicUrl}${path}?token=${id}.${sign(id)}`,
    verify(token) {
      const match = OPT_OUT_TOKEN.exec(token);
      if (!match) return null;
      const id = Number(match[1]);
      const given = Buffer.from(match[2] ?? '');
      const expected = Buffer.from(sign(id));
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
    },
  };
}

/** What the page says once the reminders are off, in the language of what they were about. */
export interface OptedOut {
  locale: Locale;
  title: string;
  text: string;
}

/** One opt-out page: its links, and what turns the reminders off (null when nothing has that id). */
export interface OptOutPage {
  links: OptOutLinks;
  turnOff(id: number): Promise<OptedOut | null>;
}

/**
 * GET and POST <path>?token=… for each page: the link in every reminder and its RFC 8058 one-click POST (body
 * List-Unsubscribe=One-Click). Both turn the reminders off and answer a small page in the language of what they
 * were about; a token that is not the page's own answers 400 and changes nothing.
 */
export async function optOutPages(app: FastifyInstance, deps: { pages: OptOutPage[]; demo: boolean }): Promise<void> {
  // A mail client's one-click POST is a form body; only this scope reads form bodies.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const page = (locale: Locale, title: string, text: string) => serverPage({
    title, site: 'TV Checkout', css: `${CARD_CSS}\nmain{max-width:28rem}\na{font-weight:600}`, demo: deps.demo, lang: MAIL_TEXTS[locale].tag,
    body: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="${escapeHtml(localePath(locale, ''))}">${escapeHtml(MAIL_TEXTS[locale].optOutPage.backToCheckout)}</a></p>`,
  });
  for (const { links, turnOff } of deps.pages) {
    const handle = async (request: FastifyRequest<{ Querystring: { token?: unknown } }>, reply: FastifyReply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8');
      const id = links.verify(typeof request.query.token === 'string' ? request.query.token : '');
      const done = id === null ? null : await turnOff(id);
      if (!done) {
        const t = MAIL_TEXTS[DEFAULT_LOCALE].optOutPage;
        return reply.code(400).send(page(DEFAULT_LOCALE, t.invalidTitle, t.invalidText));
      }
      request.log.info({ page: links.path, id }, 'reminders turned off');
      return reply.code(200).send(page(done.locale, done.title, done.text));
    };
    app.get(links.path, handle);
    app.post(links.path, handle);
  }
}
