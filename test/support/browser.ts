/**
 * A real browser for page tests: Debian's chromium driven by playwright-core (`.ci/run` installs
 * it with apt when missing). One browser per test file; each test opens a context of its own, in
 * which every Content-Security-Policy violation, console error and page error is recorded, so a
 * test can require there were none.
 *
 *   const browser = await launchBrowser();
 *   const tab = await openTab(browser, { viewport: PHONE });
 *   await tab.page.goto(`${registry.url}/`);
 *   expect(tab.problems).toEqual([]);
 *   await browser.close();
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Headless, and quiet on a closed network: no background, component-update or sync traffic. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** Git-ignored folder for screenshots and other things a run leaves to look at. */
export const ARTIFACTS_DIR = fileURLToPath(new URL("../../test-artifacts/web/", import.meta.url));

/** playwright-core's own launch gives each browser a fresh temporary profile (user-data-dir). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface Tab {
  page: Page;
  /** CSP violations (`csp: <directive> <blocked URI>`), console errors and uncaught page errors, in order. */
  problems: string[];
  close(): Promise<void>;
}

export async function openTab(browser: Browser, options: BrowserContextOptions = {}): Promise<Tab> {
  const context = await browser.newContext(options);
  const problems: string[] = [];
  await context.exposeBinding("reportCspViolation", (_source, text: string) => void problems.push(`csp: ${text}`));
  // Runs before any page script, in every document; CSP does not apply to it. (A string: this
  // project compiles without the DOM library.)
  await context.addInitScript({
    content:
      'document.addEventListener("securitypolicyviolation", (event) => ' +
      'reportCspViolation(event.violatedDirective + " " + event.blockedURI));',
  });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return { page, problems, close: () => context.close() };
}

/** A full-page screenshot into ARTIFACTS_DIR; returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
