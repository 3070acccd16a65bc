import { Link, type ErrorComponentProps } from '@tanstack/react-router';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../api';
import { PageTitle } from '../components/PageTitle';
import { useMessage } from '../hooks';
import { localeParam, useLocale } from '../locale';

/** 404: 'This page could not be found', with a link home. */
export function NotFoundView() {
  const { t } = useTranslation();
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
