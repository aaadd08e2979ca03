/**
 * A jq program in the composer: one that does not compile, the list's (the options form) and a
 * line's own (jq='…' after its URL), checked through the real services before any fetch; and
 * what the Extract choices do to jq's output.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { expectNoInternalErrorText, openResultMeta, pageErrors, pasteList, runListToDone } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
let site: TestServer;

beforeAll(async () => {
  const items = '{"items":[{"name":"alpha","n":3},{"name":"beta","n":7}]}';
  site = await startServer({
    '/items.json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(items),
    '/more.json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(items),
  });
});
afterAll(() => site?.close());
appForFile({
  ready: (o) => {
    page = o.page;
  },
});

test("a line's own jq program that does not compile stops the submit, naming its line, before anything is fetched", async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, [`${site.origin}/items.json jq=".items[].name"`, `${site.origin}/more.json jq=".items[] | select(.n > $min)"`].join('\n'));
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('2');
  await page.getByTestId('submit').click();
  // Before, the job ran: the page was fetched and its row failed, and so on every such line.
  await expect.poll(() => page.getByTestId('submit-error').locator('strong').textContent()).toBe('Line 2: jq: $min is not defined at column 24 ("$min")');
  expect(await page.getByTestId('submit-error').locator('.hint').textContent()).toMatch(/without --arg: bind a value in the program itself/);
  await page.screenshot({ path: screenshotPath('ui-jq-line-program') });
  expect(await page.getByTestId('job-view').count()).toBe(0);
  expect(site.hits).toEqual([]);
  expect(pageErrors(page)).toEqual([]);
});

test("the list's jq program is said on one line under the field, where jq's caret drawing ran together", async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.origin}/items.json`);
  await page.getByTestId('opt-jq').fill('.items[] | {name: .name');
  await page.getByTestId('opt-grep').focus();
  await expect.poll(() => page.getByTestId('options-error').locator('strong').textContent()).toBe(`jq: syntax error, unexpected end of the program, expecting '}' at column 19 (".name")`);
  await page.screenshot({ path: screenshotPath('ui-jq-list-program') });
  expect(pageErrors(page)).toEqual([]);
});

test('with a jq program, the Extract choices say what they do to its output', async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.origin}/items.json`);
  await page.getByTestId('opt-jq').fill('');
  const notes = () => page.getByTestId('opt-mode').evaluate((sel: HTMLSelectElement) => [...sel.options].filter((o) => ['markdown', 'text'].includes(o.value)).map((o) => o.text));
  expect(await notes()).toEqual(['markdown — the readable article', 'text — the article as plain text']);
  await page.getByTestId('opt-jq').fill('.items[].name');
  // "the article as plain text" said nothing of jq: text is jq -r's output, strings unquoted.
  expect(await notes()).toEqual(["markdown — jq's output as JSON", "text — jq's strings, unquoted"]);
  expect(pageErrors(page)).toEqual([]);
});

test('a jq program that gives no value is an ok row marked "no jq output", and the result says the program let nothing through', async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.origin}/items.json jq=".items[] | select(.n > 100)"`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
  await expect.poll(() => page.getByTestId('row-warning').allTextContents()).toEqual(['no jq output']);
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await page.keyboard.press('Enter');
  // It read "The result is empty: the document had no text." of a document full of it.
  await expect.poll(() => page.getByTestId('result-empty').textContent()).toMatch(/^The result is empty: the jq program gave no value for this document .*Run it with \. to see what the document holds\.$/);
  await page.screenshot({ path: screenshotPath('ui-jq-no-output') });
  expect(pageErrors(page)).toEqual([]);
});

test('a jq program that fails on the document is a row marked "jq program failed", saying what jq said and what to change', async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, `${site.origin}/items.json jq=".items.name"`);
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('1');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('failed');
  // It read "bad URL or option" of a URL that answered and an option that compiled.
  expect(await page.getByTestId('row-reason').allTextContents()).toEqual(['jq program failed']);
  // The header's count said "bad URL or option 1" of the same row.
  expect(await page.getByTestId('reason-chip').allTextContents()).toEqual(['jq program failed 1']);
  expect(await page.getByTestId('reason-chip').getAttribute('aria-label')).toBe('jq program failed: 1 target');
  // The chip's click chose the filter's "bad URL or option", words of a URL refused.
  await page.getByTestId('reason-chip').click();
  expect(await page.getByTestId('filter-reason').evaluate((sel: HTMLSelectElement) => [...sel.options].map((o) => `${o.selected ? '*' : ''}${o.text}`))).toEqual(['Every reason', '*jq program failed']);
  await page.getByTestId('reason-chip').click();
  expect(await page.getByTestId('row-error').locator('.row-error-text').textContent()).toMatch(/^Cannot index array with string \("name"\) — The program failed on a value of this document; .*try … catch/);
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  expect(await page.getByTestId('result-reason').textContent()).toBe('jq program failed');
  expect(await page.getByTestId('result-error').locator('strong').textContent()).toBe('Cannot index array with string ("name")');
  await page.screenshot({ path: screenshotPath('ui-jq-failed') });
  expect(pageErrors(page)).toEqual([]);
});

/**
 * A JSON document names no title of its own (no top-level "title" or "name"), so its row's title
 * cell was empty, and the same document fetched with a jq program and without showed two rows
 * alike at 1024 px (the URL column cut both to "127.0.0.1:4…/items.json"). The cell says what
 * names the result instead: the program, else the document's file name.
 */
test('a finished JSON row without a title is named by its jq program, else by its file name', async () => {
  await page.setViewportSize({ width: 1024, height: 768 });
  // The list's own program, from the tests before, is not this list's.
  await page.getByTestId('nav-new').click();
  await page.getByTestId('opt-jq').fill('');
  await runListToDone(page, [`${site.origin}/items.json`, `${site.origin}/items.json jq=".items[].name"`], { fromNew: true });
  const cells = page.locator('[data-testid="target-row"] .c-detail');
  expect(await cells.allTextContents()).toEqual(['items.json', 'jq .items[].name']);
  // Set apart from a title the document gave: the tooltip says why it is there.
  expect(await cells.nth(1).getAttribute('title')).toBe('jq .items[].name (the document names no title of its own)');
  await page.screenshot({ path: screenshotPath('ui-jq-untitled-rows') });
  await expectNoInternalErrorText(page);
  expect(pageErrors(page)).toEqual([]);
});

test("a jq result's pane says which size is the document's and which the result's", async () => {
  // The job of the test before: row 1 is .items[].name of a 56-byte document, 14 bytes of output.
  await openResultMeta(page, 1);
  const pane = page.locator('[data-testid="result-pane"][data-idx="1"]');
  // It read "JSON · 14 B" over the JSON and "Size 56 B" in Meta: two sizes, neither named.
  expect(await pane.locator('.result-toolbar .muted').first().textContent()).toBe('JSON result · 14 B');
  expect(await pane.locator('[data-testid="result-meta"] .meta-row[data-key="bytes"]').innerText()).toMatch(/^Document size\s+56 B$/);
  await page.screenshot({ path: screenshotPath('ui-jq-sizes') });
  expect(pageErrors(page)).toEqual([]);
});
