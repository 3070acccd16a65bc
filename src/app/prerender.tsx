/**
 * The starting shell the build writes for every locale (vite.config.ts): the header and a placeholder,
 * sent only when the server cannot render a page itself (src/app/entry-server.tsx renders every page
 * per request). Runs in Node (react-dom/server), never in the shopper's bundle.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import type { Locale } from '../domain/locale';
export { LOCALES } from '../domain/locale';
import { LOCALE_TAGS } from '../i18n';
import { StartingView } from './views/PendingView';

/** What a page needs from a prerendered screen. */
export interface PrerenderedScreen {
  /** The document's language (BCP 47). */
  lang: string;
  title: string;
  /** The markup inside #root. */
  html: string;
}

/** The page while the app starts: the header and a placeholder (no text to translate). */
export function renderStartingScreen(locale: Locale): PrerenderedScreen {
  return { lang: LOCALE_TAGS[locale], title: 'TV Checkout', html: renderToStaticMarkup(<StartingView />) };
}
