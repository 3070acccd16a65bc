import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../domain/locale';
import type { RenewalPayload, RenewalStage } from './outbox';
import { checkoutLinks, renderMail, type RenewalNoticeContext } from './templates';

const STAGES: RenewalStage[] = ['invoice', 'due-soon', 'due', 'suspended', 'terminated'];

// Service 12 on 1 Month (€12.99 a month, demo catalogue), due 27 December 2026; grace 3 days, termination 30 days.
const payload = (stage: RenewalStage): RenewalPayload => ({
  kind: 'renewal', stage, serviceId: 12, invoiceId: 345, productName: '1 Month', billingcycle: 'Monthly', amountCents: 1299, currency: 'EUR',
  dueDate: '2026-12-27', periodEnd: '2027-01-27',
});
const RENEW_URL = 'https://shop.example/checkout/api/signIn?token=R3new';
const OPT_OUT_URL = 'https://shop.example/checkout/renewals/opt-out?token=12.S1gned';
const context = (serviceName: string): RenewalNoticeContext => ({
  serviceName, renewUrl: RENEW_URL, renewLinkDays: 7, optOutUrl: OPT_OUT_URL, suspendsOn: '2026-12-30', terminatesOn: '2027-01-26',
});
const links = checkoutLinks('https://shop.example');

/** The dates written out in each locale's long format: the due date, the period's end, the suspension and the end. */
const DATES: Record<Locale, { due: string; periodEnd: string; suspends: string; terminates: string }> = {
  'en-en': { due: 'December 27, 2026', periodEnd: 'January 27, 2027', suspends: 'December 30, 2026', terminates: 'January 26, 2027' },
  'en-gb': { due: '27 December 2026', periodEnd: '27 January 2027', suspends: '30 December 2026', terminates: '26 January 2027' },
  'de-de': { due: '27. Dezember 2026', periodEnd: '27. Januar 2027', suspends: '30. Dezember 2026', terminates: '26. Januar 2027' },
  'es-es': { due: '27 de diciembre de 2026', periodEnd: '27 de enero de 2027', suspends: '30 de diciembre de 2026', terminates: '26 de enero de 2027' },
  'nl-nl': { due: '27 december 2026', periodEnd: '27 januari 2027', suspends: '30 december 2026', terminates: '26 januari 2027' },
  'pt-pt': { due: '27 de dezembro de 2026', periodEnd: '27 de janeiro de 2027', suspends: '30 de dezembro de 2026', terminates: '26 de janeiro de 2027' },
};
const TOTAL: Record<Locale, string> = {
  'en-en': '€12.99', 'en-gb': '€12.99', 'de-de': '12,99\u00a0€', 'es-es': '12,99\u00a0€', 'nl-nl': '€\u00a012,99', 'pt-pt': '12,99\u00a0€',
};
const LANG: Record<Locale, string> = { 'en-en': 'en', 'en-gb': 'en-GB', 'de-de': 'de-DE', 'es-es': 'es-ES', 'nl-nl': 'nl-NL', 'pt-pt': 'pt-PT' };
/** The plan's name as the catalogue translates it (demo.yaml). */
const PLAN: Record<Locale, string> = { 'en-en': '1 Month', 'en-gb': '1 Month', 'de-de': '1 Monat', 'es-es': '1 mes', 'nl-nl': '1 maand', 'pt-pt': '1 mês' };
const CHECKOUT: Record<Locale, string> = {
  'en-en': 'https://shop.example/checkout/', 'en-gb': 'https://shop.example/checkout/en-gb/', 'de-de': 'https://shop.example/checkout/de-de/',
  'es-es': 'https://shop.example/checkout/es-es/', 'nl-nl': 'https://shop.example/checkout/nl-nl/', 'pt-pt': 'https://shop.example/checkout/pt-pt/',
};

describe('renewal notices in the six locales', () => {
  const cases = LOCALES.flatMap((locale) => STAGES.map((stage) => [locale, stage] as const));

  it.each(cases)('%s %s: text and HTML with the plan, invoice, dates written out, lang, the action and the one-click opt-out', (locale, stage) => {
    const mail = renderMail(payload(stage), locale, { links, renewal: context(PLAN[locale]) });
    const dates = DATES[locale];
    expect(mail.subject).toContain(PLAN[locale]);
    expect(mail.html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${LANG[locale]}"`));
    expect(mail.html).toContain('<h1');
    expect(mail.html).not.toMatch(/<img|<link|<script|url\(|src=/i);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(PLAN[locale]);
      expect(part).toContain('345');
      expect(part).toContain(dates.due);
      expect(part).toContain(OPT_OUT_URL);
      expect(part).not.toMatch(/\{\w+\}/);
      if (stage === 'terminated') {
        // Ordered anew on the checkout's first page: no renew link, no amount or next period to pay for.
        expect(part).not.toContain(RENEW_URL);
        expect(part).not.toContain(TOTAL[locale]);
        expect(part).not.toContain(dates.periodEnd);
      } else {
        expect(part).toContain(RENEW_URL);
        expect(part).toContain(TOTAL[locale]);
        expect(part).toContain(dates.periodEnd);
      }
      if (stage === 'due') expect(part).toContain(dates.suspends);
      if (stage === 'suspended') expect(part).toContain(dates.terminates);
    }
    const action = stage === 'terminated' ? CHECKOUT[locale] : RENEW_URL;
    expect(mail.text).toContain(`:\n${action}\n`);
    expect(mail.html).toContain(`href="${action}"`);
    expect(mail.headers).toEqual({ 'List-Unsubscribe': `<${OPT_OUT_URL}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });

  const SUBJECT: Record<'en-en' | 'de-de', Record<RenewalStage, string>> = {
    'en-en': {
      invoice: 'Your 1 Month plan is due for renewal on December 27, 2026',
      'due-soon': 'Your 1 Month plan is due for renewal tomorrow',
      due: 'Your 1 Month plan is due for renewal today',
      suspended: 'Your 1 Month plan is suspended',
      terminated: 'Your 1 Month plan has ended',
    },
    'de-de': {
      invoice: 'Ihr Abo „1 Monat“ ist am 27. Dezember 2026 zur Verlängerung fällig',
      'due-soon': 'Ihr Abo „1 Monat“ ist morgen zur Verlängerung fällig',
      due: 'Ihr Abo „1 Monat“ ist heute zur Verlängerung fällig',
      suspended: 'Ihr Abo „1 Monat“ ist gesperrt',
      terminated: 'Ihr Abo „1 Monat“ ist beendet',
    },
  };

  it.each(STAGES)('en-en and de-de %s: the subject, and the facts as lines of the text part', (stage) => {
    const english = renderMail(payload(stage), 'en-en', { links, renewal: context('1 Month') });
    const german = renderMail(payload(stage), 'de-de', { links, renewal: context('1 Monat') });
    expect(english.subject).toBe(SUBJECT['en-en'][stage]);
    expect(german.subject).toBe(SUBJECT['de-de'][stage]);
    expect(english.text).toContain('Plan: 1 Month (service 12)\nInvoice: 345\n');
    expect(english.text).toContain('Due date: December 27, 2026');
    expect(german.text).toContain('Abo: 1 Monat (Dienst 12)\nRechnung: 345\n');
    expect(german.text).toContain('Fällig am: 27. Dezember 2026');
    if (stage !== 'terminated') {
      expect(english.text).toContain('Total: €12.99\nDue date: December 27, 2026\nRenewed until: January 27, 2027');
      expect(german.text).toContain('Gesamtbetrag: 12,99\u00a0€\nFällig am: 27. Dezember 2026\nVerlängert bis: 27. Januar 2027');
      expect(english.text).toContain(`Renew now:\n${RENEW_URL}`);
      expect(english.text).toContain('It works once, within 7 days');
      expect(german.text).toContain(`Jetzt verlängern:\n${RENEW_URL}`);
      expect(german.text).toContain('innerhalb von 7 Tagen');
    } else {
      expect(english.text).toContain('Order a new plan:\nhttps://shop.example/checkout/\n');
      expect(german.text).toContain('Neues Abo bestellen:\nhttps://shop.example/checkout/de-de/\n');
    }
    expect(english.text).toContain(`Stop renewal reminders for this plan: ${OPT_OUT_URL}`);
  });

  it('each stage says something of its own: five different subjects in every locale', () => {
    for (const locale of LOCALES) {
      const subjects = new Set(STAGES.map((stage) => renderMail(payload(stage), locale, { links, renewal: context(PLAN[locale]) }).subject));
      expect(subjects.size, locale).toBe(STAGES.length);
    }
  });
});
