/**
 * The mails, in plain text and HTML, in the shopper's locale: one layout, no images (nothing is fetched
 * from elsewhere), real headings and data tables, a lang attribute, colours of at least 7:1 contrast.
 */
import { DEFAULT_LOCALE, type Locale } from '../../domain/locale';
import type { MailFlow, MailPayload, ReceiptLine, ReceiptPayload, RecoveryPayload, RenewalPayload, ServiceActivePayload, SignInLinkPayload } from './outbox';
import { fill, MAIL_TEXTS, type MailTexts } from './texts';
import { escapeHtml } from '../escape-html';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** Extra headers (a reminder's List-Unsubscribe). */
  headers?: Record<string, string>;
}

/** A service's login details, put into "service active" only under MAIL_CREDENTIALS=on. */
export interface ServiceCredentials {
  serviceId: number;
  username: string;
  password: string;
  serverHostname: string;
}

/**
 * The links a mail carries. `service` leads to a service's page; it is a function of its own so the
 * one-time sign-in link can take its place (the page then opens on any device, signed in).
 */
export interface MailLinks {
  waiting(locale: Locale, flow: MailFlow): string;
  service(locale: Locale, flow: Exclude<MailFlow, 'upsell'>, serviceId: number): string;
  /** The checkout's first page, where a plan is ordered. */
  checkout(locale: Locale): string;
}

export interface RenderContext {
  links: MailLinks;
  /** Login details by service id; null or missing = not in the mail. */
  credentials?: ServiceCredentials[] | null;
  /** The one-time link of a "sign-in link" mail, made when it is sent. */
  signInUrl?: string;
  /** A recovery reminder's links (made when it is sent) and its order's current payment deadline. */
  recovery?: { resumeUrl: string; optOutUrl: string; deadline: string };
  /** A renewal notice's facts read when it is sent, and its links (the renew link made then too). */
  renewal?: RenewalNoticeContext;
}

/** What a renewal notice says besides its payload, and where it links. */
export interface RenewalNoticeContext {
  /** The plan's name in the notice's language. */
  serviceName: string;
  /** The one-time sign-in link to the renewal page (absent for a terminated service, which is ordered anew). */
  renewUrl?: string;
  /** How many days the renew link works. */
  renewLinkDays: number;
  optOutUrl: string;
  /** The days (YYYY-MM-DD) an unpaid service is suspended and ends. */
  suspendsOn: string;
  terminatesOn: string;
}

/** The checkout path of a page in a locale: the default locale has no prefix (as in the app). */
export function localePath(locale: Locale, path: string): string {
  return `/checkout${locale === DEFAULT_LOCALE ? '' : `/${locale}`}/${path}`;
}

/** Plain links to the checkout's own pages under PUBLIC_URL. */
export function checkoutLinks(publicUrl: string): MailLinks {
  return {
    waiting: (locale, flow) => `${publicUrl}${localePath(locale, flow === 'reseller' ? 'resellers/waiting' : 'waiting')}`,
    service: (locale, flow, serviceId) => `${publicUrl}${localePath(locale, `${flow === 'reseller' ? 'resellers/success' : 'success'}?serviceid=${serviceId}`)}`,
    checkout: (locale) => `${publicUrl}${localePath(locale, '')}`,
  };
}


const money = (texts: MailTexts, amountCents: number, currency: string) =>
  new Intl.NumberFormat(texts.tag, { style: 'currency', currency }).format(amountCents / 100);

// The shopper's time zone is not known: the deadline is given in UTC, and says so.
const dateTime = (texts: MailTexts, iso: string) => new Intl.DateTimeFormat(texts.tag, {
  year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short',
}).format(new Date(iso));

// A due date is a calendar day in UTC (src/domain/billing-cycle.ts): written out without a time.
const day = (texts: MailTexts, date: string) => new Intl.DateTimeFormat(texts.tag, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00.000Z`));

const cycleText = (texts: MailTexts, billingcycle: string) => {
  const key = billingcycle.replace(/[-\s]/g, '').toLowerCase() as keyof MailTexts['cycle'];
  return texts.cycle[key] ?? billingcycle;
};

function lineText(texts: MailTexts, line: ReceiptLine): string {
  if (line.type === 'product') return `${line.name}, ${cycleText(texts, line.billingcycle)}`;
  if (line.type === 'option') return texts.options[line.option];
  return `${fill(texts.receipt.extraConnections, { count: line.count })}, ${fill(texts.receipt.forService, { name: line.productName, id: line.serviceId })}`;
}

/** Facts as label and value: rows of a table in HTML, "label: value" lines in text. */
type Fact = [label: string, value: string];

interface Body {
  subject: string;
  heading: string;
  intro: string;
  facts: Fact[];
  /** Headed sections after the facts (e.g. the login details). */
  sections: { heading: string; facts: Fact[]; note: string }[];
  action: { label: string; href: string; hint: string } | null;
  /** A reminder's opt-out: a small line after the action, and the List-Unsubscribe headers. */
  optOut?: { hint: string; label: string; href: string };
}

const FONT = 'font-family:-apple-system,BlinkMacSystemFont,\'Segoe UI\',Roboto,Helvetica,Arial,sans-serif';
// #1f2328 on #ffffff is 15.8:1; #4b5563 on #ffffff 7.6:1; #ffffff on #0a5c2b 7.9:1; #0b57d0 on #ffffff 6.6:1.
const TEXT = '#1f2328';

function factsTable(facts: Fact[], caption: string | null): string {
  const rows = facts.map(([label, value]) => `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:6px 16px 6px 0;font-weight:600;color:${TEXT}">${escapeHtml(label)}</th><td style="padding:6px 0;color:${TEXT}">${escapeHtml(value).replace(/\n/g, '<br>')}</td></tr>`).join('');
  return `<table style="border-collapse:collapse;margin:16px 0;width:100%">${caption ? `<caption style="text-align:left;font-weight:700;padding-bottom:4px">${escapeHtml(caption)}</caption>` : ''}<tbody>${rows}</tbody></table>`;
}

/** The one layout, in HTML. */
function layoutHtml(texts: MailTexts, body: Body): string {
  const sections = body.sections.map((section) => `<h2 style="font-size:18px;line-height:1.3;margin:24px 0 8px;color:${TEXT}">${escapeHtml(section.heading)}</h2>${factsTable(section.facts, null)}<p style="margin:0 0 16px">${escapeHtml(section.note)}</p>`).join('');
  const action = body.action
    ? `<p style="margin:24px 0 8px"><a href="${escapeHtml(body.action.href)}" style="display:inline-block;background:#0a5c2b;color:#ffffff;padding:12px 20px;border-radius:6px;font-weight:700;text-decoration:underline">${escapeHtml(body.action.label)}</a></p><p style="margin:0 0 16px;color:#4b5563">${escapeHtml(body.action.hint)}</p><p style="margin:0 0 16px;font-size:14px;color:#4b5563;word-break:break-all"><a href="${escapeHtml(body.action.href)}" style="color:#0b57d0">${escapeHtml(body.action.href)}</a></p>`
    : '';
  return `<!doctype html>
<html lang="${texts.tag}" dir="ltr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light"><title>${escapeHtml(body.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;color:${TEXT};${FONT}">
<div role="article" aria-roledescription="email" aria-label="${escapeHtml(body.subject)}" lang="${texts.tag}" style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;font-size:16px;line-height:1.5;color:${TEXT}">
<p style="margin:0 0 16px;font-weight:700;font-size:14px;letter-spacing:.04em;text-transform:uppercase;color:#4b5563">${escapeHtml(texts.brand)}</p>
<h1 style="font-size:24px;line-height:1.25;margin:0 0 16px;color:${TEXT}">${escapeHtml(body.heading)}</h1>
<p style="margin:0 0 16px">${escapeHtml(body.intro)}</p>
${body.facts.length ? factsTable(body.facts, null) : ''}${sections}${action}${body.optOut ? `<p style="margin:16px 0 0;font-size:14px;color:#4b5563">${escapeHtml(body.optOut.hint)} <a href="${escapeHtml(body.optOut.href)}" style="color:#0b57d0">${escapeHtml(body.optOut.label)}</a></p>` : ''}
<hr style="border:0;border-top:1px solid #d1d5db;margin:24px 0">
<p style="margin:0;font-size:14px;color:#4b5563">${escapeHtml(texts.footer)}</p>
</div>
</body>
</html>
`;
}

/** The same layout, in plain text. */
function layoutText(texts: MailTexts, body: Body): string {
  const facts = (list: Fact[]) => list.map(([label, value]) => `${label}: ${value.replace(/\n/g, '\n  ')}`).join('\n');
  const parts = [body.heading, '='.repeat(body.heading.length), '', body.intro, ...(body.facts.length ? ['', facts(body.facts)] : [])];
  for (const section of body.sections) parts.push('', section.heading, '-'.repeat(section.heading.length), facts(section.facts), '', section.note);
  if (body.action) parts.push('', `${body.action.label}:`, body.action.href, '', body.action.hint);
  if (body.optOut) parts.push('', body.optOut.hint, `${body.optOut.label}: ${body.optOut.href}`);
  parts.push('', '--', texts.footer, '');
  return parts.join('\n');
}

function receiptBody(texts: MailTexts, locale: Locale, payload: ReceiptPayload, context: RenderContext): Body {
  const upsell = payload.flow === 'upsell';
  const facts: Fact[] = [
    ...(payload.orderId !== null ? [[texts.receipt.order, String(payload.orderId)] as Fact] : []),
    [texts.receipt.invoice, String(payload.invoiceId)],
    [texts.receipt.item, payload.lines.map((line) => lineText(texts, line)).join('\n')],
    ...(payload.promocode ? [[texts.receipt.promo, payload.promocode] as Fact] : []),
    [texts.receipt.total, money(texts, payload.amountCents, payload.currency)],
    [texts.receipt.deadline, dateTime(texts, payload.deadline)],
  ];
  return {
    subject: fill(upsell ? texts.receipt.upsellSubject : texts.receipt.subject, { order: payload.orderId ?? '', invoice: payload.invoiceId }),
    heading: upsell ? texts.receipt.upsellHeading : texts.receipt.heading,
    intro: upsell ? texts.receipt.upsellIntro : texts.receipt.intro,
    facts,
    sections: [],
    action: { label: texts.receipt.pay, href: context.links.waiting(locale, payload.flow), hint: texts.receipt.payHint },
  };
}

function serviceActiveBody(texts: MailTexts, locale: Locale, payload: ServiceActivePayload, context: RenderContext): Body {
  const t = texts.serviceActive;
  const [first] = payload.services;
  const sections = (context.credentials ?? []).map((credentials) => {
    const service = payload.services.find((candidate) => candidate.id === credentials.serviceId);
    return {
      heading: payload.services.length > 1 && service ? `${t.credentials}: ${service.name}` : t.credentials,
      facts: [[t.username, credentials.username], [t.password, credentials.password], [t.host, credentials.serverHostname]] as Fact[],
      note: t.keepSafe,
    };
  });
  return {
    subject: t.subject,
    heading: t.heading,
    intro: t.intro,
    facts: [[texts.receipt.order, String(payload.orderId)], [texts.receipt.item, payload.services.map((service) => service.name).join('\n')]],
    sections,
    action: first ? { label: t.open, href: context.links.service(locale, payload.flow, first.id), hint: t.openHint } : null,
  };
}

function signInLinkBody(texts: MailTexts, payload: SignInLinkPayload, context: RenderContext): Body {
  const t = texts.signInLink;
  const [subject, intro] = payload.reason === 'sign-up' ? [t.signUpSubject, t.signUpIntro]
    : payload.reason === 'sign-up-taken' ? [t.signUpTakenSubject, t.signUpTakenIntro]
      : [t.subject, t.intro];
  return {
    subject,
    heading: t.heading,
    intro,
    facts: [],
    sections: [],
    action: context.signInUrl ? { label: t.open, href: context.signInUrl, hint: t.openHint } : null,
  };
}

function recoveryBody(texts: MailTexts, payload: RecoveryPayload, context: RenderContext): Body {
  const t = texts.recovery;
  const links = context.recovery;
  return {
    subject: fill(t.subject, { order: payload.orderId }),
    heading: t.heading,
    intro: t.intro,
    facts: [
      [texts.receipt.order, String(payload.orderId)],
      [texts.receipt.item, payload.lines.map((line) => lineText(texts, line)).join('\n')],
      [texts.receipt.total, money(texts, payload.amountCents, payload.currency)],
      [texts.receipt.deadline, dateTime(texts, links?.deadline ?? payload.deadline)],
    ],
    sections: [],
    action: links ? { label: t.resume, href: links.resumeUrl, hint: t.resumeHint } : null,
    ...(links ? { optOut: { hint: t.optOutHint, label: t.optOut, href: links.optOutUrl } } : {}),
  };
}

function renewalBody(texts: MailTexts, locale: Locale, payload: RenewalPayload, context: RenderContext): Body {
  const t = texts.renewal;
  const notice = context.renewal;
  const serviceName = notice?.serviceName ?? payload.productName;
  const terminated = payload.stage === 'terminated';
  // Each stage's {date} is the day that matters next: the due date, then the suspension, then the end.
  const next = payload.stage === 'due' ? notice?.suspendsOn : payload.stage === 'suspended' ? notice?.terminatesOn : payload.dueDate;
  const date = day(texts, next ?? payload.dueDate);
  const facts: Fact[] = [
    [t.plan, fill(texts.receipt.forService, { name: serviceName, id: payload.serviceId })],
    [texts.receipt.invoice, String(payload.invoiceId)],
    ...(terminated ? [] : [[texts.receipt.total, money(texts, payload.amountCents, payload.currency)] as Fact]),
    [t.dueDate, day(texts, payload.dueDate)],
    ...(terminated ? [] : [[t.renewedUntil, day(texts, payload.periodEnd)] as Fact]),
  ];
  const action = terminated ? { label: t.orderAgain, href: context.links.checkout(locale), hint: t.orderAgainHint }
    : notice?.renewUrl ? { label: t.renew, href: notice.renewUrl, hint: fill(t.renewHint, { days: notice.renewLinkDays }) } : null;
  return {
    subject: fill(t.stages[payload.stage].subject, { service: serviceName, date }),
    heading: t.stages[payload.stage].heading,
    intro: fill(t.stages[payload.stage].intro, { date }),
    facts,
    sections: [],
    action,
    ...(notice ? { optOut: { hint: t.optOutHint, label: t.optOut, href: notice.optOutUrl } } : {}),
  };
}

/** Renders a message from its payload in a locale (an unknown locale gets the default's words). */
export function renderMail(payload: MailPayload, locale: Locale, context: RenderContext): RenderedMail {
  const texts = MAIL_TEXTS[locale] ?? MAIL_TEXTS[DEFAULT_LOCALE];
  const body = payload.kind === 'receipt' ? receiptBody(texts, locale, payload, context)
    : payload.kind === 'service-active' ? serviceActiveBody(texts, locale, payload, context)
      : payload.kind === 'recovery' ? recoveryBody(texts, payload, context)
        : payload.kind === 'renewal' ? renewalBody(texts, locale, payload, context)
          : signInLinkBody(texts, payload, context);
  const rendered: RenderedMail = { subject: body.subject, text: layoutText(texts, body), html: layoutHtml(texts, body) };
  // RFC 8058: mail clients offer a one-click unsubscribe that POSTs to the same link.
  if (body.optOut) rendered.headers = { 'List-Unsubscribe': `<${body.optOut.href}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  return rendered;
}
