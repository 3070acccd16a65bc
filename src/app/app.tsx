import { RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { I18nextProvider } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale } from '../domain/locale';
import { localeParam } from './locale';
import { createAppRouter, type AppRouter } from './router';
import { createServices, type AppOptions, type AppServices } from './services';

export interface CreateAppOptions extends AppOptions {
  /** Browser history by default; tests pass a memory history. */
  history?: RouterHistory;
}

export interface CheckoutApp {
  services: AppServices;
  router: AppRouter;
}

/** The services and the router of one app instance. */
export function createApp(options: CreateAppOptions = {}): CheckoutApp {
  const goHome = () => {
    const { language } = services.i18n;
    void router.navigate({ to: '/{-$locale}', params: { locale: localeParam(isLocale(language) ? language : DEFAULT_LOCALE) } });
  };
  const services = createServices(options, goHome);
  const router = createAppRouter(services, options.history);
  return { services, router };
}

/** The SPA: i18next and the router. */
export function App({ app }: { app: CheckoutApp }) {
  return (
    <I18nextProvider i18n={app.services.i18n}>
      <RouterProvider router={app.router} />
    </I18nextProvider>
  );
}
