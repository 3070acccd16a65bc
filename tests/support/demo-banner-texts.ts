import type { Locale } from '../../src/domain/locale';

/** The demo banner's text as issue 10 gives it in English and the translators in the other locales. */
export const DEMO_BANNER_TEXT: Record<Locale, string> = {
  'en-en': 'Demo — payments are simulated',
  'en-gb': 'Demo — payments are simulated',
  'de-de': 'Demo – Zahlungen werden nur simuliert',
  'es-es': 'Demo: los pagos son simulados',
  'nl-nl': 'Demo — betalingen worden gesimuleerd',
  'pt-pt': 'Demonstração — os pagamentos são simulados',
};
