import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it with apt when missing). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless chromium for a machine with no network and no user namespaces (CI containers). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const root = join(import.meta.dirname, '../..');
/** Screenshots of every page a browser test visits, kept as artifacts (gitignored). */
export const ARTIFACTS_DIR = join(root, 'test-artifacts');
/** The guide's screenshots (docs/screenshots/): refreshed only when SWITCHYARD_DOCS_SCREENSHOTS=1 (they are committed). */
export const DOCS_SCREENSHOTS_DIR = join(root, 'docs/screenshots');

/** Saves a screenshot of `page` as test-artifacts/<folder>/<name>.png, and in docs/screenshots when asked to. */
export async function screenshot(page: Page, folder: string, name: string): Promise<void> {
  const dir = join(ARTIFACTS_DIR, folder);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  if (process.env.SWITCHYARD_DOCS_SCREENSHOTS === '1') {
    mkdirSync(DOCS_SCREENSHOTS_DIR, { recursive: true });
    await page.screenshot({ path: join(DOCS_SCREENSHOTS_DIR, `${folder}-${name}.png`), fullPage: false });
  }
}
