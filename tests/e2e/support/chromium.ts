import { accessSync, constants } from 'node:fs';

/** Debian's Chromium, or the browser CHROME_PATH names. No test ever downloads a browser. */
export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

/**
 * The flags Debian's Chromium needs here (as root, offline): no sandbox, no GPU, and none of the
 * background connections a closed network refuses. Playwright adds --headless itself.
 */
export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails the run, loudly, when there is no browser to drive: the suite never skips. */
export function assertChromium(): void {
  try {
    accessSync(CHROME_PATH, constants.X_OK);
  } catch {
    throw new Error(
      [
        `The e2e suite needs Chromium, and there is none at ${CHROME_PATH}.`,
        "Install Debian's Chromium:  apt-get install -y chromium",
        'or point CHROME_PATH at a Chromium or Chrome binary. (`npx playwright install` does not work on this machine: the suite never downloads a browser.)',
      ].join('\n'),
    );
  }
}
