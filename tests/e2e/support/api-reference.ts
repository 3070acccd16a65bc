/** The Redoc API reference as a reader sees it: the operations its menu lists, beside those openapi.yaml declares. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Every operationId of the contract, lower-cased as Redoc's links spell them. */
export function contractOperationIds(): string[] {
  const spec = parse(readFileSync(join(ROOT, 'openapi.yaml'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  return Object.values(spec.paths)
    .flatMap((item) => Object.values(item).flatMap((operation) => (operation?.operationId ? [operation.operationId.toLowerCase()] : [])))
    .sort();
}

/** Opens each tag of the menu in turn (one is open at a time) and collects its operations: each link ends in its operationId. */
export async function listedOperations(page: Page): Promise<string[]> {
  const tags = page.locator('.menu-item-type-group > a');
  await expect(tags.first()).toBeVisible();
  const listed = new Set<string>();
  for (let index = 0; index < (await tags.count()); index++) {
    const tag = tags.nth(index);
    const path = await tag.getAttribute('href');
    await tag.locator('[data-testid="menu-item-label"]').click();
    await expect(page.locator(`.menu-item-type-operation > a[href^="#${path}/"]`).first()).toBeVisible();
    for (const href of await page.locator('.menu-item-type-operation > a').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))) listed.add(href.split('/').at(-1)!);
  }
  return [...listed].sort();
}
