import { describe, expect, it } from 'vitest';
import { renderStartingScreen } from './prerender';


describe('the starting shell (sent when the server cannot render a page)', () => {
  it('every other route starts with the header and a placeholder', () => {
    const screen = renderStartingScreen('de-de');

    expect(screen.lang).toBe('de-DE');
    expect(screen.html).toContain('<header class="site-header">');
    expect(screen.html).toContain('aria-busy="true"');
  });
});
