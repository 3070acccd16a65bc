import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { I18nextProvider } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale } from '../domain/locale';
import { localeParam } from './locale';
import { createAppRouter, type AppRouter } from './router';
import { createServices, type AppOptions, type AppServices } from './services';

export interface CreateAppOptions extends AppOptions {
  /** Browser history by default; tests pass a memory history. */
  history?: RouterHistory;
  /** True for the server's render (src/app/entry-server.tsx). */
  isServer?: boolean;
}

export interface CheckoutApp {
  services: AppServices;
  router: AppRouter;
}

/**
 * The services of one app instance, then (`withRouter`) its router: two steps, so a caller can end
 * its task between them (main.tsx); createApp takes both at once.
 */
export function createAppServices(options: CreateAppOptions = {}): { services: AppServices; withRouter: () => CheckoutApp } {
  let router: AppRouter | undefined;
  const goHome = () => {
    const { language } = services.i18n;
    void router?.navigate({ to: '/{-$locale}', params: { locale: localeParam(isLocale(language) ? language : DEFAULT_LOCALE) } });
  };
  const services = createServices(options, goHome);
  const withRouter = (): CheckoutApp => {
    router ??= createAppRouter(services, options.history, options.isServer);
    return { services, router };
  };
  return { services, withRouter };
}

/** The services and the router of one app instance. */
export function createApp(options: CreateAppOptions = {}): CheckoutApp {
  return createAppServices(options).withRouter();
}

/** The SPA: i18next and the router. */
export function App({ app }: { app: CheckoutApp }) {
  return (
    <I18nextProvider i18n={app.services.i18n}>
      <RouterProvider router={app.router} />
    </I18nextProvider>
  );
}
