/**
 * Settings as a user changes them, in real Chromium over the real services: a bad value is
 * named next to its field before Save, and a saved one is what the next job does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axOf } from '../helpers/a11y';
import { screenshotPath } from '../helpers/chromium';
import { expectNoInternalErrorText, pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { startSite, type Site } from '../helpers/sites';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';

let page: Page;
let site: Site;
/** The User-Agent of each request for /ua, in order. */
const agents: string[] = [];

beforeAll(async () => {
  site = await startSite({
    '/ua': (req, res) => {
      agents.push(String(req.headers['user-agent']));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('recorded');
    },
  });
});
afterAll(async () => {
  await site?.close();
});

const opened = appForFile({
  ready: (o) => {
    page = o.page;
  },
});

const fieldError = (key: string) => () => page.getByTestId(`setting-${key}`).locator('xpath=ancestor::label').locator('.field-error').textContent();

test('every field says what it is for, in the words of the app', async () => {
  await page.getByTestId('nav-settings').click();
  // A screen reader hears each text, number or list field's help as its description; "User agent"
  // and the allowed hosts had none, and the archive service's said only its default (s27 appqa2).
  const fields = page.locator('[data-testid="settings-panel"] :is(input:not([type="checkbox"]), select, textarea)');
  const undescribed: string[] = [];
  for (const id of await fields.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''))) {
    const { name, description } = await axOf(page, `[data-testid="${id}"]`);
    if (!description.trim()) undescribed.push(name);
  }
  expect(undescribed).toEqual([]);
  expect((await axOf(page, '[data-testid="setting-archiveService"]')).description).toMatch(/^Where “Recover from an archive when a page is gone” looks for a copy/);
});

test('values that cannot be saved are named next to their field, and Save waits for them', async () => {
  await page.getByTestId('nav-settings').click();
  // The runner sets a job's expiry when it ends and when it is opened: a new time is not applied to the jobs already kept.
  const ttlHelp = await page.getByTestId('setting-ttlHours').locator('xpath=ancestor::label').locator('.muted').last().textContent();
  expect(ttlHelp).toMatch(/a job that ended before a change keeps its old time until opened/);
  await page.getByTestId('setting-jobsPerCaller').fill('9');
  await expect.poll(fieldError('jobsPerCaller')).toBe('At most “Live jobs at once (all)”, now 8.');
  await page.getByTestId('setting-userAgent').fill('Sift—mine/1');
  await expect.poll(fieldError('userAgent')).toMatch(/^Use plain letters, digits and punctuation \(ASCII\) on one line/);
  await page.getByTestId('setting-allowHosts').fill('fd00::5\nwiki.example:8080');
  expect(await page.getByTestId('setting-allowHosts').locator('xpath=ancestor::label').locator('.field-error').count()).toBe(0);
  // The status names the fields to fix: "the fields marked in red" said nothing to a screen reader.
  expect(await page.getByTestId('settings-status').textContent()).toBe('Fix 2 fields to save: “Live jobs at once (this app)”, “User agent”.');
  expect(await page.getByTestId('settings-save').isDisabled()).toBe(true);
  // A screen reader hears the field by its label (and unit), then its error, and that it is invalid;
  // the error or the help was read as part of the name.
  expect(await axOf(page, '[data-testid="setting-jobsPerCaller"]')).toEqual({ name: 'Live jobs at once (this app)', description: 'At most “Live jobs at once (all)”, now 8.', invalid: true });
  expect(await axOf(page, '[data-testid="setting-ttlHours"]')).toEqual({ name: 'Keep finished jobs for hours', description: expect.stringMatching(/^Counted from a job’s end/), invalid: false });
  expect(await axOf(page, '[data-testid="setting-userAgent"]')).toMatchObject({ name: 'User agent', description: expect.stringMatching(/^Use plain letters/), invalid: true });
  expect(await axOf(page, '[data-testid="setting-allowHosts"]')).toEqual({ name: 'Hosts allowed even when private addresses are blocked', description: expect.stringMatching(/^Names or addresses, one a line/), invalid: false });
  expect(await axOf(page, '[data-testid="setting-render"]')).toMatchObject({ name: 'Run a page’s JavaScript', invalid: false });
  await page.getByTestId('setting-userAgent').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('ui-settings-invalid') });
  await expectNoInternalErrorText(page);
});

test('a user agent saved in Settings is the one the next job sends', async () => {
  await page.getByTestId('setting-jobsPerCaller').fill('4');
  await page.getByTestId('setting-userAgent').fill('Mine/2 (+https://example.org)');
  await page.getByTestId('settings-save').click();
  await expect.poll(() => page.getByTestId('settings-status').textContent()).toBe('Saved. New jobs use these settings.');
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.base}/ua`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status')).toBe('done');
  expect(agents).toEqual(['Mine/2 (+https://example.org)']);
  expect(pageErrors(page)).toEqual([]);
});

test('Restore defaults puts every field back to what a new install has, and once saved the next job uses them', async () => {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('setting-ttlHours').fill('5');
  await page.getByTestId('setting-maxPdfPages').fill('20');
  await page.getByTestId('settings-save').click();
  await expect.poll(() => page.getByTestId('settings-status').textContent()).toBe('Saved. New jobs use these settings.');
  expect(await page.getByTestId('settings-defaults').count()).toBe(1);
  await page.getByTestId('settings-defaults').click();
  // Restored in the form, not yet saved: the user sees what would change and may undo it.
  expect(await page.getByTestId('setting-ttlHours').inputValue()).toBe(String(DEFAULT_SETTINGS.ttlHours));
  expect(await page.getByTestId('setting-maxPdfPages').inputValue()).toBe(String(DEFAULT_SETTINGS.maxPdfPages));
  expect(await page.getByTestId('setting-userAgent').inputValue()).toBe(DEFAULT_SETTINGS.userAgent);
  expect(await page.getByTestId('setting-allowPrivate').isChecked()).toBe(false);
  expect(await page.getByTestId('settings-status').textContent()).toMatch(/^\d+ unsaved changes$/);
  expect(await page.getByTestId('settings-defaults').getAttribute('aria-disabled')).toBe('true');
  // The test's site is on loopback: the user keeps private addresses allowed.
  await page.getByTestId('setting-allowPrivate').check();
  await page.getByTestId('settings-save').click();
  await expect.poll(() => page.getByTestId('settings-status').textContent()).toBe('Saved. New jobs use these settings.');
  const onDisk = JSON.parse(readFileSync(path.join(opened.app.dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
  // allowPrivate: the test's app runs with it on for the session, so ticking it changed nothing to write.
  expect({ ...onDisk, allowPrivate: true }).toEqual({ ...DEFAULT_SETTINGS, allowPrivate: true });
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.base}/ua?after-defaults`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.getByTestId('submit').click();
  await expect.poll(() => agents.length).toBe(2);
  expect(agents.at(-1)).toBe(DEFAULT_SETTINGS.userAgent);
  await expectNoInternalErrorText(page);
});

test('changes not yet saved are still there after a look at another view, to save or undo', async () => {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('setting-ttlHours').fill('12');
  await page.getByTestId('setting-allowHosts').fill('wiki.internal.example');
  await page.getByTestId('nav-new').click();
  await page.getByTestId('composer').waitFor();
  await page.getByTestId('nav-settings').click();
  await expect.poll(() => page.getByTestId('setting-ttlHours').inputValue()).toBe('12');
  expect(await page.getByTestId('setting-allowHosts').inputValue()).toBe('wiki.internal.example');
  expect(await page.getByTestId('settings-status').textContent()).toBe('2 unsaved changes');
  await page.getByTestId('settings-undo').click();
  expect(await page.getByTestId('setting-ttlHours').inputValue()).toBe(String(DEFAULT_SETTINGS.ttlHours));
  await page.getByTestId('nav-activity').click();
  await page.getByTestId('nav-settings').click();
  await expect.poll(() => page.getByTestId('setting-ttlHours').inputValue()).toBe(String(DEFAULT_SETTINGS.ttlHours));
  expect(await page.getByTestId('settings-status').textContent()).toBe('');
});

/**
 * The texts in the settings panel that run past its right edge, where the panel's sideways
 * scroll hides them: a field's help, unit or error at a narrow window's width. Empty when
 * every one is whole.
 */
const cutInSettings = (): Promise<string[]> =>
  page.getByTestId('settings-panel').evaluate((panel: HTMLElement) => {
    const edge = panel.getBoundingClientRect().right - (panel.offsetWidth - panel.clientWidth);
    // A visually hidden description (an unavailable button's why) is clipped on purpose.
    const cut = Array.from(panel.querySelectorAll('.field > *, .setting-input > *, legend, .form-actions > :not(.visually-hidden)'))
      // A text box scrolls a long value within itself; anything else wider than its box is cut.
      .filter((e) => e.getBoundingClientRect().right > edge + 1 || (!e.matches('input, textarea') && e.scrollWidth > e.clientWidth + 1))
      .map((e) => (e.textContent || (e as HTMLInputElement).dataset.testid || e.tagName).trim());
    return panel.scrollWidth > panel.clientWidth + 1 ? [`the panel scrolls sideways by ${panel.scrollWidth - panel.clientWidth} px`, ...cut] : cut;
  });

test('in an 800 px window and at 200% zoom every label, unit, help and error of Settings is whole', async () => {
  await page.getByTestId('nav-settings').click();
  // 200% zoom of a 1280 × 820 window lays out as a 640 × 410 one.
  for (const [w, h, name] of [
    [800, 700, 'ui-settings-800'],
    [640, 410, 'ui-settings-zoom200'],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    try {
      await page.getByTestId('setting-jobsPerCaller').fill('9');
      await expect.poll(fieldError('jobsPerCaller')).toBe('At most “Live jobs at once (all)”, now 8.');
      await page.getByTestId('setting-jobsPerCaller').scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshotPath(name) });
      expect(await cutInSettings(), name).toEqual([]);
    } finally {
      await page.getByTestId('settings-undo').click();
      await page.setViewportSize({ width: 1280, height: 820 });
    }
  }
});
