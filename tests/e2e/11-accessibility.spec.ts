import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { WALKS } from './support/screens';

interface Finding {
  screen: string;
  scheme: 'light' | 'dark';
  /** A violation, or a check axe could not decide ("incomplete": needs a human look). */
  kind: 'violation' | 'needs review';
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * axe-core with every rule it runs by default (WCAG 2.x A and AA, best practices) in the light scheme;
 * in the dark one only the colours change, so only the contrast rules run again.
 */
async function axe(screen: string, page: Page, findings: Finding[]): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const builder = new AxeBuilder({ page });
    if (scheme === 'dark') builder.withRules(['color-contrast', 'link-in-text-block']);
    const results = await builder.analyze();
    const record = (kind: Finding['kind'], items: typeof results.violations) =>
      items.forEach(({ id, impact, help, nodes }) => findings.push({ screen, scheme, kind, id, impact, help, targets: nodes.map((node) => node.target.join(' ')) }));
    record('violation', results.violations);
    record('needs review', results.incomplete);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

for (const [who, walk] of Object.entries(WALKS)) {
  test(`axe-core finds no serious or critical violation on the ${who}'s screens, light and dark`, async ({ browser }, testInfo) => {
    // A whole walk through the product, with a check on every screen.
    test.setTimeout(180_000);
    const findings: Finding[] = [];
    const screens: string[] = [];
    await walk(browser, async (screen, page) => {
      screens.push(screen);
      await axe(screen, page, findings);
    });
    await testInfo.attach('axe-findings.json', { body: JSON.stringify({ screens, findings }, null, 2), contentType: 'application/json' });
    for (const { screen, scheme, kind, impact, id, help, targets } of findings) console.log(`[axe] ${screen} (${scheme}) ${kind}: ${impact} ${id}: ${help} at ${targets.join(', ')}`);
    const blocking = findings.filter(({ kind, impact }) => kind === 'violation' && (impact === 'serious' || impact === 'critical'));
    expect(blocking).toEqual([]);
  });
}
