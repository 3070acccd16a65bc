import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export interface AxeFinding {
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
 * axe-core on the page as it is: every rule it runs by default (WCAG 2.x A and AA, best practices) in
 * the light scheme; in the dark one only the colours change, so only the contrast rules run again.
 */
export async function axeFindings(screen: string, page: Page, scheme: AxeFinding['scheme']): Promise<AxeFinding[]> {
  const builder = new AxeBuilder({ page });
  if (scheme === 'dark') builder.withRules(['color-contrast', 'link-in-text-block']);
  const results = await builder.analyze();
  const findings: AxeFinding[] = [];
  const record = (kind: AxeFinding['kind'], items: typeof results.violations) =>
    items.forEach(({ id, impact, help, nodes }) => findings.push({ screen, scheme, kind, id, impact, help, targets: nodes.map((node) => node.target.join(' ')) }));
  record('violation', results.violations);
  record('needs review', results.incomplete);
  return findings;
}

/** The findings that fail a screen: serious or critical violations. */
export function blockingFindings(findings: AxeFinding[]): AxeFinding[] {
  return findings.filter(({ kind, impact }) => kind === 'violation' && (impact === 'serious' || impact === 'critical'));
}
