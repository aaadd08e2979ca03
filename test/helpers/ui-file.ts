/**
 * The set-up an e2e file shares with the others: its loopback sites, the app's services,
 * Chromium and a page of the renderer bridged to them, opened once before the file's tests and
 * closed after them, with the screen read after each test for what no user should see.
 * Apart from ui-app.ts, which bench/ui.ts loads outside vitest.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ensureBuilt } from './build';
import { launchChromium, openBridgedPage } from './chromium';
import type { Closable } from './loopback';
import { expectNoInternalErrorText, openApp, startUiApp, type OpenAppOptions, type OpenedApp, type UiApp } from './ui-app';

export interface AppForFileOptions {
  /** What the app opens with; a function when the options name what `serve` started (a site's address). */
  app?: OpenAppOptions | (() => OpenAppOptions);
  /** The loopback sites the tests fetch: started before the app, closed after it. */
  serve?: () => Promise<Closable | Closable[]>;
  /** The page's window, when not openBridgedPage's 1280 × 820. */
  viewport?: { width: number; height: number };
  /** Given the opened app before the first test: where the file takes its `page` from, say. */
  ready?: (opened: OpenedApp) => void | Promise<void>;
  /**
   * false: the screen is not read after each test, for a file whose results on screen hold the
   * words the read looks for as their own (a paper on JavaScript says "undefined").
   */
  readScreen?: boolean;
}

/**
 * Opens the app for this file's tests (call at the file's top level) and gives it back; its
 * fields are set once the file's first beforeAll has run. Hooks the file adds after this call
 * run after the app opens and before it closes (vitest's 'stack' order of hooks).
 */
export function appForFile(o: AppForFileOptions = {}): OpenedApp {
  const opened = {} as OpenedApp;
  const servers: Closable[] = [];
  beforeAll(async () => {
    if (o.serve) servers.push(...[await o.serve()].flat());
    Object.assign(opened, await openApp(typeof o.app === 'function' ? o.app() : o.app));
    if (o.viewport) await opened.page.setViewportSize(o.viewport);
    await o.ready?.(opened);
  });
  // Issue 11: a cancel was shown as a bug. Every file's screen is read after each of its tests.
  afterEach(async () => {
    if (opened.page && o.readScreen !== false) await expectNoInternalErrorText(opened.page);
  });
  afterAll(async () => {
    await opened.close?.();
    for (const s of servers.reverse()) await s.close();
  });
  return opened;
}

export interface AppsForFile {
  /**
   * A new app and a page of it, in the file's one Chromium: over another's `dataDir`, the same
   * data after a restart. Closed after the file's tests unless the test closes it first.
   */
  open(options?: Parameters<typeof startUiApp>[0]): Promise<{ app: UiApp; page: Page }>;
  /** An app the test took down by its own hand (a crash: its store closed under it): not closed again. */
  forget(app: UiApp): void;
}

/**
 * appForFile for a file whose tests each open their own apps (restarts, a data folder each):
 * one Chromium for the file, and every page a test opened read after it, as appForFile reads its one.
 */
export function appsForFile(o: Pick<AppForFileOptions, 'serve'> = {}): AppsForFile {
  let browser: Browser | undefined;
  const servers: Closable[] = [];
  const apps = new Set<UiApp>();
  const pages: Page[] = [];
  beforeAll(async () => {
    ensureBuilt();
    if (o.serve) servers.push(...[await o.serve()].flat());
    browser = await launchChromium();
  });
  // A page its test closed (to restart its app) cannot be read, and is passed over.
  afterEach(async () => {
    for (const page of pages.splice(0)) await expectNoInternalErrorText(page);
  });
  afterAll(async () => {
    await browser?.close();
    for (const app of apps) await app.close().catch(() => {});
    for (const s of servers.reverse()) await s.close();
  });
  return {
    async open(options) {
      const started = await startUiApp(options);
      const app: UiApp = {
        ...started,
        close: async () => {
          apps.delete(app);
          await started.close();
        },
      };
      apps.add(app);
      const page = await openBridgedPage(browser!, app.bridge.url, app.bridge.wsUrl);
      pages.push(page);
      return { app, page };
    },
    forget: (app) => void apps.delete(app),
  };
}
