import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createAppServices } from './app';
import { DEFAULT_LOCALE, type Locale } from '../domain/locale';
import { EARLY_INPUT_GLOBAL } from '../domain/page-scripts';
import { fetchTranslations, type Translations } from '../i18n';
import { answeringFetch, readDehydrated } from './dehydrated';
import { replayEarlyInput, type EarlyInput } from './early-input';
import { createFlowCollector, flowReportAllowed } from './flow/collector';
import { readPayment } from './saved-payment';
import type { Inspector } from './services';
import './styles.css';

/** Ends the current task: the start-up steps each run in a task of their own, and the page answers between them. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** What React could not hydrate as the server sent it (it renders that part again): the journeys fail on this prefix. */
export const RECOVERABLE_ERROR_PREFIX = '[tvc] hydration recovered:';

async function start(): Promise<void> {
  await nextTask();
  // A build made with INSPECT=on or =record only: the constant is '' otherwise, and this branch and its chunk are not built.
  const developerInspect = import.meta.env.VITE_INSPECT ? (await import('./inspect')).startInspection(import.meta.env.VITE_INSPECT, import.meta.env.VITE_STUDIO_LIVE_URL ?? '') : undefined;
  // The API answers the server rendered the page with (its data blocks) answer the same calls here, once each, without the network.
  const dehydrated = readDehydrated(document);
  const flow = flowReportAllowed(dehydrated.flowReport, navigator as { globalPrivacyControl?: boolean; doNotTrack?: string | null }) ? createFlowCollector() : null;
  const inspect = composeInspectors(developerInspect, flow?.inspect);
  // The page's own locale comes with the page: the first render has its words at once, never a key.
  const pageTranslations = dehydrated.translations;
  const loadTranslations = (locale: Locale) => (pageTranslations?.locale === locale ? Promise.resolve(pageTranslations.resources as Translations) : fetchTranslations(locale));
  const created = createAppServices({ ...(inspect ? { inspect } : {}), fetch: answeringFetch(dehydrated.answers, (input, init) => fetch(input, init)), renderedAt: dehydrated.renderedAt, loadTranslations });
  await nextTask();
  const app = created.withRouter();
  await nextTask();
  // The first route loads (session, translations, the first screen's data) before the first render:
  // until then the page the server rendered stays on screen as it is. A failed load is kept in the
  // router's state and shown by the route's error view once rendered.
  await app.router.load().catch(() => {});
  // Past the first page, clocks read the browser's own time.
  const unsubscribe = app.router.subscribe('onBeforeNavigate', () => {
    app.services.renderedAt = undefined;
    unsubscribe();
  });
  await nextTask();
  const root = document.getElementById('root')!;
  // Once the page is the app's, what the shopper did before goes through its handlers, once.
  const replay = () => {
    const held = window as unknown as Record<string, EarlyInput | undefined>;
    // Gone once replayed: the page is the app's from here on.
    replayEarlyInput(held[EARLY_INPUT_GLOBAL], () => delete held[EARLY_INPUT_GLOBAL]);
  };
  const element = (
    <StrictMode>
      <AfterFirstCommit then={replay}>
        <App app={app} />
      </AfterFirstCommit>
    </StrictMode>
  );
  // A transition: React hydrates in slices, so the page keeps answering meanwhile. The server's DOM stays.
  const serverRendered = root.hasAttribute('data-server-rendered');
  // The router renders its matches as it did on the server (no Suspense of its own around the root), as its own SSR hydration would set.
  if (serverRendered) (app.router as { ssr?: { manifest: undefined } }).ssr = { manifest: undefined };
  startTransition(() => {
    if (serverRendered) hydrateRoot(root, element, { onRecoverableError: (error) => console.error(RECOVERABLE_ERROR_PREFIX, error) });
    else createRoot(root).render(element);
  });
  if (flow) {
    await nextTask();
    const { startFlowSender } = await import('./flow/sender');
    // The gateway comes from the payment this browser saved when an order or payment link was made with it (a catalogue module), never from a machine's context.
    startFlowSender(flow, { locale: () => app.services.catalogueLocale() ?? DEFAULT_LOCALE, gateway: () => readPayment(app.services.store)?.gateway });
  }
}

/** Calls `then` once the tree inside has committed (hydrated, for a server-rendered page); adds nothing to the page. */
function AfterFirstCommit({ children, then }: { children: ReactNode; then: () => void }) {
  useEffect(then, [then]);
  return children;
}

/** Both inspectors, when both are on (the development one only in a build made with INSPECT). */
function composeInspectors(...inspectors: (Inspector | undefined)[]): Inspector | undefined {
  const present = inspectors.filter((inspector) => inspector !== undefined);
  if (present.length < 2) return present[0];
  return (event) => {
    for (const inspector of present) {
      if (typeof inspector === 'function') inspector(event);
      else inspector.next?.(event);
    }
  };
}

void start();

// Off by default: without configuration this branch is not even built.
if (import.meta.env.VITE_ANALYTICS_SCRIPT || import.meta.env.VITE_HEATMAP_SCRIPT || import.meta.env.VITE_FONT_STYLESHEET) {
  void import('./third-party').then(({ loadThirdParties }) => loadThirdParties(import.meta.env));
}
