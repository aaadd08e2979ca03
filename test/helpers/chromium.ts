import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { bridgeClientScript } from '../bridge/build-client';

export const CHROMIUM = process.env.SIFT_CHROMIUM ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags that keep it off the (closed) network. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set SIFT_CHROMIUM).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * A page whose window.sift talks to the bridge at wsUrl, installed before any page script runs.
 * `prepare` runs on the context before the page opens (routes the bridge's socket, say).
 */
export async function openBridgedPage(
  browser: Browser,
  appUrl: string,
  wsUrl: string,
  colorScheme: 'light' | 'dark' = 'light',
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<Page> {
  // Reduced motion: the progress bars take their width at once, so a screenshot taken as a
  // job ends shows the bar the user sees a moment later, not one caught mid-transition.
  const context = await browser.newContext({ viewport: { width: 1280, height: 820 }, colorScheme, reducedMotion: 'reduce' });
  // Before the bridge's script: a routed socket must be routed when that script opens it.
  await prepare?.(context);
  const code = await bridgeClientScript();
  // Only in the app's page: the bridge refuses any other origin, such as the about:blank a new
  // page starts as, and the refusal was logged there as an error of the page.
  await context.addInitScript({ content: `${code}\nif (location.host === ${JSON.stringify(new URL(wsUrl).host)}) installSiftBridge(${JSON.stringify(wsUrl)});` });
  // Every action waits for its element (an event); on a busy 2-core CI machine that can
  // take longer than Playwright's 30 s default without anything being wrong.
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  (page as Page & { siftErrors?: string[] }).siftErrors = errors;
  await page.goto(appUrl);
  return page;
}

export function screenshotPath(name: string): string {
  const dir = path.resolve(__dirname, '../../test-results');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.png`);
}
