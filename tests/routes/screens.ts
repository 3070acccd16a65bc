/** Every route of the SPA, what it needs to open, and how to recognise its screen in a locale. */
import { screen } from '@testing-library/react';
import { LOCALES, type Locale } from '../../src/domain/locale';
import type { Translations } from '../../src/i18n';
import de from '../../src/i18n/locales/de-de.json';
import en from '../../src/i18n/locales/en-en.json';
import gb from '../../src/i18n/locales/en-gb.json';
import es from '../../src/i18n/locales/es-es.json';
import nl from '../../src/i18n/locales/nl-nl.json';
import pt from '../../src/i18n/locales/pt-pt.json';
import { clientSession, fakeApi } from '../support/fake-api';

export const TEXTS: Record<Locale, Translations> = { 'en-en': en, 'en-gb': gb, 'de-de': de, 'es-es': es, 'nl-nl': nl, 'pt-pt': pt };

/** The URL of a path in a locale: en-en has no prefix. */
export const urlOf = (locale: Locale, path: string) => `/checkout${locale === 'en-en' ? '' : `/${locale}`}${path}`;

/** A payment waiting in the checkout cookie, deadline in an hour (or `timeLeftMs`). */
export const waitingCookie = (flow: 'order' | 'reseller' = 'order', timeLeftMs = 3_600_000) =>
  JSON.stringify({
    payment: {
      flow,
      order: { orderid: 1001, invoiceid: 2001, serviceid: 3001, fraud: false },
      link: 'http://localhost/checkout/sandbox/pay/pay_demo',
      gateway: 'sandbox',
      lastDate: Date.now() + timeLeftMs,
      duration: 86_400_000,
    },
  });

export interface Screen {
  path: string;
  title: (texts: Translations) => string;
  /** Something only this screen shows, found by role. */
  shows: (texts: Translations) => Promise<unknown>;
  api?: Parameters<typeof fakeApi>[0];
  cookies?: Record<string, string>;
}

const loggedIn = { session: clientSession };

export const SCREENS: Screen[] = [
  {
    path: '/',
    title: (t) => t.checkout.title,
    shows: (t) => screen.findByRole('button', { name: t.checkout.submit }),
  },
  {
    path: '/creatingOrder?email=ann%40mail.test&pid=1&auto_redirect=true',
    title: (t) => t.creatingOrder.title,
    shows: (t) => screen.findByRole('link', { name: t.creatingOrder.manualLink }),
  },
  {
    path: '/renew?serviceid=3001',
    title: (t) => t.renew.title,
    shows: (t) => screen.findByRole('group', { name: t.gateway.legend }),
    api: loggedIn,
  },
  {
    path: '/resellers',
    title: (t) => t.reseller.title,
    shows: (t) => screen.findByRole('group', { name: t.reseller.existing }),
  },
  {
    path: '/resellers/success?serviceid=3005',
    title: (t) => t.reseller.successTitle,
    shows: () => screen.findByText(/streamshop/),
    api: loggedIn,
  },
  {
    path: '/resellers/waiting',
    title: (t) => t.waiting.title,
    shows: (t) => screen.findByRole('timer', { name: t.waiting.timeLeft }),
    cookies: { checkout: waitingCookie('reseller') },
  },
  {
    path: '/success?serviceid=3001',
    title: (t) => t.success.title,
    shows: (t) => screen.findByRole('button', { name: `${t.success.copy} ${t.success.username}` }),
    api: loggedIn,
  },
  {
    path: '/upsell',
    title: (t) => t.upsell.title,
    shows: (t) => screen.findByRole('slider', { name: t.upsell.quantity }),
    api: loggedIn,
  },
  {
    path: '/waiting',
    title: (t) => t.waiting.title,
    shows: (t) => screen.findByRole('timer', { name: t.waiting.timeLeft }),
    cookies: { checkout: waitingCookie() },
  },
];

export { LOCALES };
