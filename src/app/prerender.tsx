/**
 * The starting shell the build writes for every locale (vite.config.ts): the header and a placeholder,
 * sent only when the server cannot render a page itself (src/app/entry-server.tsx renders every page
 * per request). Runs in Node (react-dom/server), never in the shopper's bundle.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { APP_BASE } from '../domain/app-routes';
import { DEFAULT_LOCALE, type Locale } from '../domain/locale';
export { LOCALES } from '../domain/locale';
import { LOCALE_TAGS, type Translations } from '../i18n';
import { documentTitle } from './components/PageTitle';
import { Shell, StartingView } from './views/PendingView';

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

const TRANSLATIONS = Object.fromEntries(
  Object.entries(import.meta.glob<Translations>('../i18n/locales/*.json', { eager: true, import: 'default' })).map(([file, translations]) => [file.replace(/^.*\/([\w-]+)\.json$/, '$1'), translations]),
) as Record<Locale, Translations>;

/** Where the error page's status goes: the server writes the one it answers with (src/server/spa.ts). */
export const SERVER_ERROR_STATUS_MARKER = '__STATUS__';

/** The page the server sends when it cannot answer a page (500, 400, 503): translated, complete without a script, with the way home. */
export function renderServerErrorScreen(locale: Locale): PrerenderedScreen {
  const { app, errors } = TRANSLATIONS[locale];
  const home = locale === DEFAULT_LOCALE ? `${APP_BASE}/` : `${APP_BASE}/${locale}`;
  const html = renderToStaticMarkup(
    <Shell>
      <section className="page error-page">
        <h1>{errors.generic}</h1>
        <p className="hint">{errors.status.replace('{{status}}', SERVER_ERROR_STATUS_MARKER)}</p>
        <p>
          <a href={home} className="button">
            {app.backHome}
          </a>
        </p>
      </section>
    </Shell>,
  );
  return { lang: LOCALE_TAGS[locale], title: documentTitle(errors.generic, app.title), html };
}
