import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppServices } from './app';
import './styles.css';

/** Ends the current task: the start-up steps each run in a task of their own, and the page answers between them. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start(): Promise<void> {
  await nextTask();
  // A build made with INSPECT=on or =record only: the constant is '' otherwise, and this branch and its chunk are not built.
  const inspect = import.meta.env.VITE_INSPECT ? (await import('./inspect')).startInspection(import.meta.env.VITE_INSPECT, import.meta.env.VITE_STUDIO_LIVE_URL ?? '') : undefined;
  const created = createAppServices(inspect ? { inspect } : {});
  await nextTask();
  const app = created.withRouter();
  await nextTask();
  // The first route loads (session, translations) before the first render: until then the page the
  // server sent (its first screen prerendered, see src/app/prerender.tsx) stays on screen as it is.
  // A failed load is kept in the router's state and shown by the route's error view once rendered.
  await app.router.load().catch(() => {});
  // A transition: React renders the first screen in slices, so the page keeps answering meanwhile.
  startTransition(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App app={app} />
      </StrictMode>,
    ),
  );
}

void start();

// Off by default: without configuration this branch is not even built.
if (import.meta.env.VITE_ANALYTICS_SCRIPT || import.meta.env.VITE_HEATMAP_SCRIPT || import.meta.env.VITE_FONT_STYLESHEET) {
  void import('./third-party').then(({ loadThirdParties }) => loadThirdParties(import.meta.env));
}
