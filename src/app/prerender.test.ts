import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../domain/locale';
import { LOCALE_TAGS, type Translations } from '../i18n';
import de from '../i18n/locales/de-de.json';
import en from '../i18n/locales/en-en.json';
import gb from '../i18n/locales/en-gb.json';
import es from '../i18n/locales/es-es.json';
import nl from '../i18n/locales/nl-nl.json';
import pt from '../i18n/locales/pt-pt.json';
import { PAGE_VISITORS, renderIndexScreen, renderStartingScreen } from './prerender';

const TEXTS: Record<Locale, Translations> = { 'en-en': en, 'en-gb': gb, 'de-de': de, 'es-es': es, 'nl-nl': nl, 'pt-pt': pt };
const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('the prerendered first screen (what the server sends before any script runs)', () => {
  it.each(LOCALES.flatMap((locale) => PAGE_VISITORS.map((visitor) => [locale, visitor] as const)))('%s, %s: the plan choice in its locale, loading', async (locale, visitor) => {
    const t = TEXTS[locale];
    const screen = await renderIndexScreen(locale, visitor, t);

    expect(screen.lang).toBe(LOCALE_TAGS[locale]);
    expect(screen.title).toBe(`${t.checkout.title} · ${t.app.title}`);
    expect(screen.html).toContain(`<h1 tabindex="-1">${html(t.checkout.title)}</h1>`);
    expect(screen.html).toContain(`<p class="lead">${html(t.checkout.intro)}</p>`);
    // The catalogue's placeholder, and nothing under it that the order would push down.
    expect(screen.html).toContain(`<div class="skeleton" role="status"><span class="visually-hidden">${html(t.app.loading)}</span>`);
    expect(screen.html).not.toContain('class="links"');
    expect(screen.html).toContain(`<nav aria-label="${html(t.app.languages)}">`);
    // The merchant's box, last in the footer: the hint now, the server's merchant once the app renders (its height reserved).
    expect(screen.html).toMatch(/<div class="merchant-footer" data-merchant-footer="true"><p class="hint">[^<]+<\/p><\/div><\/footer>/);
    expect(screen.html).toContain(html(t.merchant.securePayment.split(':')[0] ?? ''));
    expect(screen.html).not.toMatch(/<script/i);
    // A visitor may log in; a session's user may sign out.
    expect(screen.html.includes(html(t.login.title))).toBe(visitor === 'visitor');
    expect(screen.html.includes(html(t.app.signOut))).toBe(visitor !== 'visitor');
  });

  it('every other route starts with the header and a placeholder', () => {
    const screen = renderStartingScreen('de-de');

    expect(screen.lang).toBe('de-DE');
    expect(screen.html).toContain('<header class="site-header">');
    expect(screen.html).toContain('aria-busy="true"');
  });
});
