import 'i18next';
import type en from './locales/en-en.json';

// Keys are typed from en-en: a key missing there is a type error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    returnNull: false;
  }
}
