import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { createServices, type Services } from '../../src/main/services';
import { startBridge, type Bridge } from '../bridge/host';
import { ensureBuilt, RENDERER_DIR } from '../helpers/build';
import { launchChromium, openBridgedPage, screenshotPath } from '../helpers/chromium';

let browser: Browser;
let bridge: Bridge;
let services: Services;
const dbPath = path.join(mkdtempSync(path.join(os.tmpdir(), 'sift-e2e-')), 'sift.db');

beforeAll(async () => {
  ensureBuilt();
  services = createServices({ dbPath, host: 'bridge' });
  bridge = await startBridge({ handlers: services.handlers, staticDir: RENDERER_DIR, checkResponses: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await services?.close();
});

test('the built renderer shows the app info it got from the real services over the bridge', async () => {
  const page = await openBridgedPage(browser, bridge.url, bridge.wsUrl);
  await expect.poll(() => page.getByTestId('app-db').textContent()).toBe(dbPath);
  expect(await page.getByTestId('app-platform').textContent()).toBe(process.platform);
  expect(await page.getByTestId('app-version').textContent()).toMatch(/^\d+\.\d+\.\d+/);
  await page.screenshot({ path: screenshotPath('01-app-info') });
  expect((page as unknown as { siftErrors: string[] }).siftErrors).toEqual([]);
});
