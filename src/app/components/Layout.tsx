import { Link, Outlet } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { selectCanSignOut } from '../../../machines/auth.machine';
import { LOCALES } from '../../domain/locale';
import { LOCALE_NAMES, LOCALE_TAGS } from '../../i18n';
import { useApp, useMessage } from '../hooks';
import { localeParam, rememberLocale, useLocale } from '../locale';
import { Alert } from './Feedback';
import { Logo } from './Icons';
import { MerchantFooter } from './MerchantFooter';

/** Header, page and language links. */
export function Layout() {
  const { t } = useTranslation();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <LanguageLinks />
    </>
  );
}

/** The logo links home; Sign Out shows only for a user with both a user id and an e-mail. */
function Header() {
  const { t } = useTranslation();
  const message = useMessage();
  const locale = useLocale();
  const app = useApp();
  const { auth } = app.session;
  const canSignOut = useSelector(auth, selectCanSignOut);
  const signingOut = useSelector(auth, (snapshot) => snapshot.matches('signingOut'));
  const error = useSelector(auth, (snapshot) => snapshot.context.signOutError);
  return (
    <header className="site-header">
      <div className="bar">
        <Link to="/{-$locale}" params={{ locale: localeParam(locale) }} className="brand" aria-label={t('app.home')}>
          <Logo />
          <span>{t('app.title')}</span>
        </Link>
        {(canSignOut || signingOut) && (
          <button type="button" className="button secondary" aria-disabled={signingOut || undefined} onClick={() => auth.send({ type: 'auth.signOut' })}>
            {signingOut ? t('app.signingOut') : t('app.signOut')}
          </button>
        )}
      </div>
      {error && <Alert>{message(error)}</Alert>}
    </header>
  );
}

/** The same page in each locale, following one remembers the choice; then who sells (MerchantFooter). */
function LanguageLinks() {
  const { t } = useTranslation();
  const app = useApp();
  const current = useLocale();
  return (
    <footer className="site-footer">
      <nav aria-label={t('app.languages')}>
        <ul>
          {LOCALES.map((locale) => (
            <li key={locale}>
              <Link
                to="."
                params={(previous: object) => ({ ...previous, locale: localeParam(locale) })}
                search={true}
                hrefLang={LOCALE_TAGS[locale]}
                lang={LOCALE_TAGS[locale]}
                aria-current={locale === current ? 'true' : undefined}
                onClick={() => rememberLocale(app, locale)}
              >
                {LOCALE_NAMES[locale]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <MerchantFooter />
    </footer>
  );
}
