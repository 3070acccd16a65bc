import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createApp } from './app';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App app={createApp()} />
  </StrictMode>,
);

// Off by default: without configuration this branch is not even built.
if (import.meta.env.VITE_ANALYTICS_SCRIPT || import.meta.env.VITE_HEATMAP_SCRIPT || import.meta.env.VITE_FONT_STYLESHEET) {
  void import('./third-party').then(({ loadThirdParties }) => loadThirdParties(import.meta.env));
}
