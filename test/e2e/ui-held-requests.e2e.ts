import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureBuilt } from '../helpers/build';
import { launchChromium, openBridgedPage, screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, pageErrors, startUiApp, type UiApp } from '../helpers/ui-app';
import { startSite, type Site } from '../helpers/sites';

/**
 * Stopping an export from its dialog, through the real services behind the bridge. The
 * export's request is held on the bridge's socket until the user has pressed Stop, so the
 * stop always comes while the export is pending, however fast the machine writes.
 */
let browser: Browser;
let site: Site;
let app: UiApp;
let page: Page;
const held: { send(): void; method: string }[] = [];
let holding = true;

beforeAll(async () => {
  ensureBuilt();
  site = await startSite();
  app = await startUiApp();
  browser = await launchChromium();
  page = await openBridgedPage(browser, app.bridge.url, app.bridge.wsUrl, 'light', (context) =>
    context.routeWebSocket(app.bridge.wsUrl, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => {
        const method = typeof m === 'string' ? ((JSON.parse(m) as { method?: string }).method ?? '') : '';
        if (holding && method === 'exportJob') held.push({ method, send: () => server.send(m) });
        else server.send(m);
      });
      server.onMessage((m) => ws.send(m));
    }),
  );
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await site?.close();
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();

test('Stop export ends the export with nothing written, and the dialog says so', async () => {
  await page.getByTestId('paste-box').fill([1, 2, 3].map((n) => `${site.base}/article/${n}`).join('\n'));
  await expect.poll(text('count-valid')).toBe('3');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
  await page.getByTestId('export-job').click();
  await page.getByTestId('export-start').click();
  await expect.poll(() => held.length).toBe(1);
  // Writing (its request on its way): the dialog offers Stop in place of Cancel.
  expect(await page.getByTestId('export-close').count()).toBe(0);
  await page.getByTestId('export-stop').click();
  await expect.poll(text('export-status')).toContain('Stopping…');
  expect(await page.getByTestId('export-stop').isDisabled()).toBe(true);
  held.shift()?.send();
  await expect.poll(text('export-stopped')).toBe('Export stopped. Nothing was written.');
  expect(readdirSync(app.exportDir)).toEqual([]);
  await page.screenshot({ path: screenshotPath('ui-export-stopped') });
  await expectNoInternalErrorText(page);
  // The dialog is usable again: the next export runs to its end.
  holding = false;
  await page.getByTestId('export-start').click();
  await expect.poll(text('export-result'), { timeout: 60_000 }).toMatch(/^Wrote 5 files .* for 3 targets to /);
  expect(readdirSync(app.exportDir)).toHaveLength(1);
  await page.getByTestId('export-close').click();
  expect(await page.getByTestId('export-dialog').count()).toBe(0);
});

test('no errors were logged in the page', () => {
  expect(pageErrors(page)).toEqual([]);
});
