import { defineConfig } from '@playwright/test';
import { CHROME_ARGS, CHROME_PATH } from './tests/e2e/support/chromium';

/**
 * Real-browser journeys: Debian's Chromium (or CHROME_PATH) driven by Playwright against the built
 * SPA and the real server on a free port with a fresh data directory (tests/e2e/support/global-setup.ts).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  globalSetup: './tests/e2e/support/global-setup.ts',
  // Two cores shared with other work: two browsers at most.
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]] : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    // The copy buttons write to the clipboard as on a shopper's own machine.
    permissions: ['clipboard-read', 'clipboard-write'],
    locale: 'en-US',
    timezoneId: 'Europe/Amsterdam',
    launchOptions: { executablePath: CHROME_PATH, args: CHROME_ARGS },
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
