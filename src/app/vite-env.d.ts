/// <reference types="vite/client" />

/** Build-time configuration (Vite env vars); every third party is off unless its variable is set. */
interface ImportMetaEnv {
  /** Script URL of the analytics provider. */
  readonly VITE_ANALYTICS_SCRIPT?: string;
  /** Script URL of the heat-map / session-recording provider. */
  readonly VITE_HEATMAP_SCRIPT?: string;
  /** Stylesheet URL of a web-font provider, e.g. a Google Fonts css2 URL. */
  readonly VITE_FONT_STYLESHEET?: string;
  /** The font family that stylesheet defines, used before the system fonts. */
  readonly VITE_FONT_FAMILY?: string;
  /** Set from INSPECT by vite.config.ts: 'on' (live view + journey coverage), 'record' (journey coverage), '' (none). */
  readonly VITE_INSPECT?: '' | 'on' | 'record';
  /** The flow studio's live WebSocket (ws://localhost:STUDIO_PORT/live), for INSPECT=on. */
  readonly VITE_STUDIO_LIVE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
