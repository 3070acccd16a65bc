/**
 * The floor: the least an app can be that uses every library the checkout is mandated to use — React,
 * TanStack Router with the optional locale prefix, one XState machine through @xstate/react, one
 * i18next string through react-i18next and one typed openapi-fetch call. `npm run bench` compares the
 * checkout's first screen with this one.
 */
import { createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import i18next from 'i18next';
import createClient from 'openapi-fetch';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initReactI18next, useTranslation } from 'react-i18next';
import { assign, fromPromise, setup } from 'xstate';
import type { paths } from '../../../src/api/schema';

const LOCALES = ['en-en', 'en-gb', 'de-de', 'es-es', 'nl-nl', 'pt-pt'] as const;

void i18next.use(initReactI18next).init({
  lng: 'en-en',
  fallbackLng: 'en-en',
  lowerCaseLng: true,
  initAsync: false,
  interpolation: { escapeValue: false },
  resources: { 'en-en': { translation: { title: 'Choose your plan', status: 'Server: {{status}}' } } },
});

const client = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

const healthMachine = setup({
  types: { context: {} as { status: string } },
  actors: {
    health: fromPromise(async () => {
      const { data } = await client.GET('/checkout/api/health');
      return data?.status ?? 'unknown';
    }),
  },
}).createMachine({
  id: 'floor',
  context: { status: '…' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'health',
        src: 'health',
        onDone: { target: 'ready', actions: assign({ status: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ status: 'down' }) },
      },
    },
    ready: {},
    failed: {},
  },
});

/** The floor's keys are its own, not the checkout's (whose typed resources the repository declares). */
type Translate = (key: string, options?: Record<string, unknown>) => string;

function Home() {
  const t = useTranslation().t as unknown as Translate;
  const [snapshot] = useMachine(healthMachine);
  return (
    <main>
      <h1>{t('title')}</h1>
      <p>{t('status', { status: snapshot.context.status })}</p>
    </main>
  );
}

const rootRoute = createRootRoute({ component: () => <Outlet /> });
const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/{-$locale}',
  params: {
    parse: ({ locale }) => {
      if (locale !== undefined && !(LOCALES as readonly string[]).includes(locale.toLowerCase())) throw new Error(`Unknown locale ${locale}`);
      return { locale: locale?.toLowerCase() };
    },
    stringify: ({ locale }) => ({ locale }),
  },
  beforeLoad: ({ params }) => {
    const language = params.locale ?? 'en-en';
    if (i18next.language !== language) void i18next.changeLanguage(language);
  },
  component: Home,
});
const router = createRouter({ routeTree: rootRoute.addChildren([homeRoute]), basepath: '/checkout' });

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
