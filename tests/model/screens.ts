/**
 * What the screen showed at each step of a view walk, saved for the flow studio (issue 18): one HTML file per step at
 * coverage/statecharts/screens/<machine>/<path number>/<step>.html, numbered as the studio numbers its scenarios and
 * steps; the studio's build copies them beside its data with the app's stylesheet.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENS_DIR } from '../../scripts/statecharts/coverage-files';

/** Forgets a machine's screens of an earlier run, so a changed path keeps none of another path's. */
export function clearScreens(machine: string): void {
  rmSync(join(SCREENS_DIR, machine), { recursive: true, force: true });
}

/** Saves the page as it is now: the markup only (no script), styled by the app's stylesheet beside the screens. */
export function saveScreen(machine: string, pathNumber: number, stepNumber: number, page: HTMLElement, lang: string): void {
  const dir = join(SCREENS_DIR, machine, String(pathNumber));
  mkdirSync(dir, { recursive: true });
  const body = page.innerHTML.replace(/<script\b[\s\S]*?<\/script>/gi, '');
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${machine}, path ${pathNumber}, step ${stepNumber}</title><link rel="stylesheet" href="../../app.css"></head><body>${body}</body></html>\n`;
  writeFileSync(join(dir, `${stepNumber}.html`), html);
}
