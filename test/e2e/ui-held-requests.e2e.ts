import { readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, pageErrors, type UiApp } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startSite, type Site } from '../helpers/sites';

/**
 * What the user does while a request is on its way, through the real services behind the
 * bridge, with the request (or its answer) held on the bridge's socket until the user has
 * acted, so the order is the test's, however fast or busy the machine: stopping an export
 * from its dialog; clearing a bad grep while its check is being answered.
 */
let site: Site;
let app: UiApp;
let page: Page;
const held: { send(): void; method: string }[] = [];
let holding = true;
/** Answers to checkOptions calls are held while this is set. */
let holdingChecks = false;
const checkIds = new Set<number>();
const heldAnswers: (() => void)[] = [];

appForFile({
  serve: async () => (site = await startSite()),
  app: {
    prepare: (context, bridged) =>
      context.routeWebSocket(bridged.bridge.wsUrl, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((m) => {
          const call = typeof m === 'string' ? (JSON.parse(m) as { id?: number; method?: string }) : {};
          const method = call.method ?? '';
          if (method === 'checkOptions' && call.id !== undefined) checkIds.add(call.id);
          if (holding && method === 'exportJob') held.push({ method, send: () => server.send(m) });
          else server.send(m);
        });
        server.onMessage((m) => {
          const answer = typeof m === 'string' ? (JSON.parse(m) as { t?: string; id?: number }) : {};
          if (holdingChecks && answer.t === 'res' && answer.id !== undefined && checkIds.has(answer.id)) heldAnswers.push(() => ws.send(m));
          else ws.send(m);
        });
      }),
  },
  ready: (o) => {
    ({ app, page } = o);
  },
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
  await expect.poll(text('export-result'), { timeout: 60_000 }).toMatch(/^Exported 3 targets to .+ \(.+\): 3 result files, with manifest\.jsonl and failed\.txt\.$/);
  expect(readdirSync(app.exportDir)).toHaveLength(1);
  await page.getByTestId('export-close').click();
  expect(await page.getByTestId('export-dialog').count()).toBe(0);
});

test("a grep check answered after the grep was cleared does not bring its error back", async () => {
  await page.getByTestId('nav-new').click();
  await page.getByTestId('paste-box').fill(`${site.base}/article/1`);
  await expect.poll(text('count-valid')).toBe('1');
  holdingChecks = true;
  await page.getByTestId('opt-grep').fill('(unclosed');
  // Leaving the field asks main whether the pattern is valid; the answer is held.
  await page.getByTestId('opt-grep').blur();
  await expect.poll(() => heldAnswers.length).toBe(1);
  await page.getByTestId('opt-grep').fill('');
  holdingChecks = false;
  heldAnswers.shift()?.();
  // The preview's answer comes after the held one on the same socket: once it is shown, the
  // check's answer has been read too.
  await page.getByTestId('preview-button').click();
  await expect.poll(text('result-markdown')).toContain('Paragraph 1 of article 1');
  expect(await page.getByTestId('options-error').count()).toBe(0);
  await expectNoInternalErrorText(page);
});

test('no errors were logged in the page', () => {
  expect(pageErrors(page)).toEqual([]);
});
