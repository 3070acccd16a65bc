import { DEMO_BANNER_TEXTS, demoBannerHtml } from './demo-banner';
import { escapeHtml } from './escape-html';

export { escapeHtml };


/** Styles every page of the server's own shares: system colours (light and dark), visible focus. */
const BASE_CSS = [
  ':root{color-scheme:light dark;font-family:system-ui,sans-serif}',
  'body{margin:0;background:Canvas;color:CanvasText}',
  'a:focus-visible,button:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}',
  '.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}',
].join('\n');

/** A small card centred under the banner: the sandbox provider's page, a sign-in link that cannot be used. */
export const CARD_CSS = [
  'body{display:grid;grid-template-rows:auto 1fr;min-height:100vh}',
  'main{grid-row:2;place-self:center;padding:2rem;border:1px solid GrayText;border-radius:12px}',
].join('\n');

/**
 * A page the server renders itself, outside the SPA (English, like the providers' pages it stands for, unless `lang` says otherwise):
 * `<title>` is "title · site", and in demo mode the demo banner comes first; `after` (a footer) follows <main>.
 */
export function serverPage({ title, site, css, body, demo, lang = 'en', after = '' }: { title: string; site: string; css: string; body: string; demo: boolean; lang?: string; after?: string }): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(site)}</title>
<style>
${BASE_CSS}
${css}
</style></head><body>${demo ? demoBannerHtml(DEMO_BANNER_TEXTS['en-en']) : ''}<main>${body}</main>${after}</body></html>`;
}
