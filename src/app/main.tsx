import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createApp } from './app';
import './styles.css';

const app = createApp();
// The first route loads (session, translations) before the first render: until then the page the
// server sent (its first screen prerendered, see src/app/prerender.tsx) stays on screen as it is.
void app.router
  .load()
  .catch(() => {})
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App app={app} />
      </StrictMode>,
    ),
  );

// Off by default: without configuration this branch is not even built.
if (import.meta.env.VITE_ANALYTICS_SCRIPT || import.meta.env.VITE_HEATMAP_SCRIPT || import.meta.env.VITE_FONT_STYLESHEET) {
  void import('./third-party').then(({ loadThirdParties }) => loadThirdParties(import.meta.env));
}
