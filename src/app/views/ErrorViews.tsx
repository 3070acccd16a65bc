import { Link, useLocation, type ErrorComponentProps } from '@tanstack/react-router';
import { Component, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALE_TAGS } from '../../i18n';
import { ApiFailure } from '../api';
import { PageTitle } from '../components/PageTitle';
import { useApp, useMessage } from '../hooks';
import { likelyLocale, localeParam, useLocale } from '../locale';
import { PendingView } from './PendingView';

/**
 * An unknown first segment (/checkout/nope, /checkout/fr-fr/…) is refused while the locale route
 * parses its params, before its guard loads a locale: the error pages then load the visitor's
 * likely locale themselves, instead of showing translation keys.
 */
function useTranslationsReady(): boolean {
  const app = useApp();
  const { i18n } = useTranslation();
  const { pathname } = useLocation();
  const [ready, setReady] = useState(() => i18n.hasResourceBundle(i18n.language, 'translation'));
  useEffect(() => {
    if (ready) return undefined;
    let current = true;
    const locale = likelyLocale(app, pathname);
    app.locales.switchTo(locale).then(
      () => {
        if (!current) return;
        app.setDocumentLanguage(LOCALE_TAGS[locale]);
        setReady(true);
      },
      () => {},
    );
    return () => {
      current = false;
    };
  }, [app, pathname, ready]);
  return ready;
}

/** 404: 'This page could not be found', with a link home. */
export function NotFoundView() {
  const { t } = useTranslation();
  const ready = useTranslationsReady();
  if (!ready) return <PendingView />;
  return (
    <section className="page error-page">
      <PageTitle>{t('errors.notFound')}</PageTitle>
      <p className="hint">{t('errors.status', { status: 404 })}</p>
      <HomeLink />
    </section>
  );
}

/** Any other error: its message and status (default 500, 'Error'); a failure here shows a plain fallback. */
export function ErrorView({ error }: ErrorComponentProps) {
  const ready = useTranslationsReady();
  if (!ready) return <PendingView />;
  return (
    <ErrorPageBoundary>
      <ErrorContent error={error} />
    </ErrorPageBoundary>
  );
}

function ErrorContent({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const message = useMessage();
  // Only the API's messages are meant for shoppers; a script error shows the generic 'Error'.
  const failure = error instanceof ApiFailure ? error : null;
  return (
    <section className="page error-page">
      <PageTitle>{failure ? message(failure.message) : t('errors.generic')}</PageTitle>
      <p className="hint">{t('errors.status', { status: failure?.status || 500 })}</p>
      <HomeLink />
    </section>
  );
}

function HomeLink() {
  const { t } = useTranslation();
  return (
    <p>
      <Link to="/{-$locale}" params={{ locale: localeParam(useLocale()) }} className="button">
        {t('app.backHome')}
      </Link>
    </p>
  );
}

class ErrorPageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <ErrorPageFailed /> : this.props.children;
  }
}

function ErrorPageFailed() {
  const { t } = useTranslation();
  return (
    <section className="page error-page">
      <h1>{t('errors.errorPage')}</h1>
      <p>
        <a href={import.meta.env.BASE_URL}>{t('errors.goHome')}</a>
      </p>
    </section>
  );
}
