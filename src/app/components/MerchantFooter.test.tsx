import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../../tests/support/fake-api';
import { renderApp } from '../../../tests/support/render-app';

// The fake API's merchant (tests/support/fake-api.ts): support e-mail, terms, privacy and refunds; no support page, no logo.
describe('the merchant footer', () => {
  it('shows who sells, the support address, the terms, privacy and refund links and the secure-payment hint', async () => {
    const { container } = await renderApp({ url: '/checkout/', fetch: fakeApi().fetch });
    expect(await screen.findByText('Sold by Fake Shop Ltd.')).toBeTruthy();
    const links = within(screen.getByRole('navigation', { name: 'About the seller' })).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Support: help@shop.example', 'mailto:help@shop.example'],
      ['Terms of service', 'https://shop.example/terms'],
      ['Privacy policy', 'https://shop.example/privacy'],
      ['Refund policy', 'https://shop.example/refunds'],
    ]);
    expect(screen.getByText(/^Secure payment: /)).toBeTruthy();
    // Inside the page's one footer (contentinfo), after the language links.
    const footer = container.querySelector('footer.site-footer');
    expect(footer?.lastElementChild?.matches('[data-merchant-footer]')).toBe(true);
  });

  it('labels the links in the page\'s language', async () => {
    await renderApp({ url: '/checkout/de-de/', fetch: fakeApi().fetch });
    expect(await screen.findByText('Verkauft von Fake Shop Ltd.')).toBeTruthy();
    const links = within(screen.getByRole('navigation', { name: 'Über den Verkäufer' })).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Kontakt: help@shop.example', 'AGB', 'Datenschutzerklärung', 'Erstattungsrichtlinie']);
  });

  it('keeps only the secure-payment hint when the merchant cannot be read, and the page still works', async () => {
    await renderApp({ url: '/checkout/', fetch: fakeApi({ merchant: apiError(503, 'store_unavailable', 'Down') }).fetch });
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.getByText(/^Secure payment: /)).toBeTruthy();
    expect(screen.queryByText(/^Sold by /)).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'About the seller' })).toBeNull();
  });
});
