import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { axOf } from '../helpers/a11y';
import { screenshotPath } from '../helpers/chromium';
import { pageErrors, type UiApp } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import { ARTICLE, startRenderSites, type RenderSites } from '../helpers/render-sites';

/**
 * A job with rendering on, through the UI: the real services (engine, runner, fetcher, the
 * guarding proxy and a system Chromium driven by playwright-core) behind the bridge. Only the
 * fixtures' origin is allowed; the second loopback host must see nothing.
 */
let sites: RenderSites;
let app: UiApp;
let page: Page;

appForFile({
  serve: async () => (sites = await startRenderSites()),
  app: { settings: { allowPrivate: false, allowHosts: ['127.0.0.1'], renderBudgetSeconds: 10 } },
  ready: (o) => {
    ({ app, page } = o);
  },
});

const text = (testId: string) => () => page.getByTestId(testId).first().textContent();

test('Settings shows the render mode and the browser in use', async () => {
  await page.getByTestId('nav-settings').click();
  await expect.poll(text('render-browser')).toMatch(/^Browser: \S+ \(\/.+\)$/);
  expect(await page.getByTestId('setting-render').inputValue()).toBe('auto');
  expect(await page.getByTestId('setting-renderBudgetSeconds').inputValue()).toBe('10');
  await page.getByTestId('settings-render').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('ui-settings-render') });
});

test('the composer offers render for the whole list, and the preview can render', async () => {
  await page.getByTestId('nav-new').click();
  const o = sites.allowed.origin;
  await page.getByTestId('paste-box').fill([`${o}/fetch.html`, `${o}/inline.html`, `${o}/static.html`, `${o}/next.html render=never`, `${o}/ssrf.html`].join('\n'));
  await expect.poll(text('count-valid')).toBe('5');
  await page.getByTestId('opt-render').selectOption('auto');
  await page.getByTestId('preview-button').click();
  // Plain preview of an app shell: the static HTML under render=auto is rendered already.
  await expect.poll(text('result-meta'), { timeout: 60_000 }).toMatch(/Rendered in a browser\s*yes/);
  await expect.poll(text('preview-button'), { timeout: 60_000 }).toBe('Preview');
  await page.getByTestId('preview-render-button').click();
  await expect.poll(text('preview-button')).toBe('Fetching…');
  // Rendered on request (render_why "always"), not because auto judged it a shell.
  await expect.poll(text('preview-button'), { timeout: 60_000 }).toBe('Preview');
  expect(await text('result-meta')()).toMatch(/Why rendered\s*the render option is “always”/);
  await expect.poll(text('result-markdown')).toContain(ARTICLE.paragraphs[3] ?? '');
  await page.screenshot({ path: screenshotPath('ui-preview-rendered') });
});

test('a job with rendering on recovers the app shells, keeps the static page static, and fails the unrendered shell as needs_js', async () => {
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-view').count()).toBe(1);
  // The render=never app shell is not the page (SPEC §5.9): the job ends partial.
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 120_000 }).toBe('partial');
  const id = (await page.getByTestId('job-view').getAttribute('data-job-id')) ?? '';
  const rows = app.services.store.targetRows(id);
  const results = rows.map((r) => app.services.store.targetResult(id, r.idx)?.result?.meta?.rendered);
  expect(results).toEqual([true, true, false, undefined, true]);
  expect(rows[3]).toMatchObject({ status: 'failed', reason: 'needs_js' });
  // Its hint names the app's own setting and retry option, not the command line's flag.
  const shell = page.locator('[data-testid="target-row"][data-idx="3"]');
  await expect.poll(() => shell.getByTestId('row-error').innerText()).toMatch(/Turn on rendering .*“Run a page’s JavaScript” in Settings/);
  expect(await shell.getByTestId('row-error').innerText()).not.toMatch(/--render/);
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await expect.poll(text('result-markdown')).toContain(ARTICLE.paragraphs[0] ?? '');
  expect(await text('result-meta')()).toMatch(/Rendered in a browser\s*yes/);
  // Why, in words: the table showed the code, "needs_js".
  expect(await text('result-meta')()).toMatch(/Why rendered\s*the page is an app shell: its text appears only once its scripts run/);
  expect(sites.forbidden.connections).toBe(0);
  await page.screenshot({ path: screenshotPath('ui-job-rendered') });
});

test('retrying the needs-JavaScript target offers rendering, on, and the new job renders it', async () => {
  const first = await page.getByTestId('job-view').getAttribute('data-job-id');
  await page.locator('[data-testid="reason-chip"][data-reason="needs_js"]').click();
  await page.getByTestId('retry-reason').click();
  await expect.poll(() => page.getByTestId('retry-dialog').count()).toBe(1);
  // Its advice says these pages need rendering; the line's own render=never is overridden.
  await expect.poll(() => page.getByTestId('retry-render').isChecked()).toBe(true);
  expect(await page.getByTestId('retry-render').isDisabled()).toBe(false);
  expect(await page.getByTestId('retry-recover').isChecked()).toBe(false);
  await page.screenshot({ path: screenshotPath('ui-retry-render-dialog') });
  await page.getByTestId('retry-start').click();
  await expect.poll(() => page.getByTestId('job-view').getAttribute('data-job-id')).not.toBe(first);
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 120_000 }).toBe('done');
  const id = (await page.getByTestId('job-view').getAttribute('data-job-id')) ?? '';
  expect(app.services.store.targetResult(id, 0)?.result?.meta).toMatchObject({ rendered: true, render_why: 'always' });
  expect(sites.forbidden.connections).toBe(0);
});

test('with no browser to render with, the retry dialog says why and does not offer rendering', async () => {
  const { chromiumPath } = await app.services.handlers.getSettings(undefined as never);
  await app.services.handlers.setSettings({ settings: { chromiumPath: '/nonexistent/chromium' } });
  try {
    await page.getByTestId('job-item').last().click();
    await page.locator('[data-testid="reason-chip"][data-reason="needs_js"]').click();
    await page.getByTestId('retry-reason').click();
    await expect.poll(text('retry-no-browser')).toMatch(/^No browser to render with: "Browser for the command line" in Settings names no executable browser\. Install Chromium/);
    expect(await page.getByTestId('retry-render').isChecked()).toBe(false);
    // Unavailable, not disabled: a disabled box is out of the Tab order, so a keyboard user went
    // from recover to Cancel and never heard why rendering was not offered. Tab reaches it now,
    // and it is read with why.
    expect(await page.getByTestId('retry-render').getAttribute('aria-disabled')).toBe('true');
    await page.getByTestId('retry-recover').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('retry-render');
    // Read with the check box, not only found by reading on past it.
    expect(await axOf(page, '[data-testid="retry-render"]')).toMatchObject({ description: expect.stringMatching(/^No browser to render with: "Browser for the command line" in Settings/) });
    // A press of it changes nothing: every target would fail as "render=always cannot be met".
    await page.keyboard.press('Space');
    // A mouse click on its label, where the box is; forced, as Playwright waits for an enabled box.
    await page.getByTestId('retry-dialog').getByText('Run the pages in a browser').click({ force: true });
    expect(await page.getByTestId('retry-render').isChecked()).toBe(false);
    await page.screenshot({ path: screenshotPath('ui-retry-no-browser') });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('retry-dialog').count()).toBe(0);
  } finally {
    await app.services.handlers.setSettings({ settings: { chromiumPath } });
  }
});

test('no errors were logged in the page', () => {
  expect(pageErrors(page)).toEqual([]);
});
