/**
 * Analytics, heat-map and font providers: off by default, each enabled only by its build-time
 * variable (see .env.example). They load after the page, so they never delay the first screen.
 */

export interface ThirdPartyConfig {
  VITE_ANALYTICS_SCRIPT?: string;
  VITE_HEATMAP_SCRIPT?: string;
  VITE_FONT_STYLESHEET?: string;
  VITE_FONT_FAMILY?: string;
}

export function loadThirdParties(config: ThirdPartyConfig): void {
  const { VITE_ANALYTICS_SCRIPT, VITE_HEATMAP_SCRIPT, VITE_FONT_STYLESHEET, VITE_FONT_FAMILY } = config;
  const load = () => {
    if (VITE_FONT_STYLESHEET) {
      document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: VITE_FONT_STYLESHEET }));
      if (VITE_FONT_FAMILY) document.documentElement.style.setProperty('--font', `"${VITE_FONT_FAMILY}", var(--font-system)`);
    }
    for (const src of [VITE_ANALYTICS_SCRIPT, VITE_HEATMAP_SCRIPT]) {
      if (src) document.head.append(Object.assign(document.createElement('script'), { src, async: true }));
    }
  };
  if (document.readyState === 'complete') load();
  else window.addEventListener('load', load, { once: true });
}
