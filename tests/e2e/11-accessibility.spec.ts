import type { Page } from '@playwright/test';
import { axeFindings, blockingFindings, type AxeFinding } from './support/axe';
import { expect, test } from './support/fixtures';
import { WALKS } from './support/screens';

async function axe(screen: string, page: Page, findings: AxeFinding[]): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    findings.push(...(await axeFindings(screen, page, scheme)));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

for (const [who, walk] of Object.entries(WALKS)) {
  test(`axe-core finds no serious or critical violation on the ${who}'s screens, light and dark`, async ({ browser }, testInfo) => {
    // A whole walk through the product, with a check on every screen.
    test.setTimeout(180_000);
    const findings: AxeFinding[] = [];
    const screens: string[] = [];
    await walk(browser, async (screen, page) => {
      screens.push(screen);
      await axe(screen, page, findings);
    });
    await testInfo.attach('axe-findings.json', { body: JSON.stringify({ screens, findings }, null, 2), contentType: 'application/json' });
    for (const { screen, scheme, kind, impact, id, help, targets } of findings) console.log(`[axe] ${screen} (${scheme}) ${kind}: ${impact} ${id}: ${help} at ${targets.join(', ')}`);
    expect(blockingFindings(findings)).toEqual([]);
  });
}
