/**
 * Results of the modes that keep part of a document, read in the app's result view: grep's
 * lines (with context), a question's passages and jq's outputs, fetched through the real
 * services from a loopback site.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { pageErrors, pasteList } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

let page: Page;
let site: TestServer;

const PARAGRAPHS = [
  'The widget was introduced in 2019 by a small company in Lyon, where it is still made.',
  'It is made of recycled aluminium, which keeps it light: a widget weighs 120 grams.',
  'The widget costs 25 euros in shops and 20 euros online; shipping is free above 50 euros.',
  'Customers say it lasts about ten years when kept dry, and repairs are done in Lyon.',
  'The company also sells a larger model for workshops, at 80 euros, with a longer warranty.',
  'Orders placed before noon leave the warehouse on the same day, except on public holidays.',
];
const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The widget</title></head><body><article><h1>The widget</h1>${PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}</article></body></html>`;

beforeAll(async () => {
  site = await startServer({
    '/widget': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
    '/items.json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[{"name":"alpha","id":12345678901234567890},{"name":"beta","id":2}]}'),
  });
});
afterAll(async () => {
  await site?.close();
});

appForFile({
  ready: (o) => {
    page = o.page;
  },
});

async function open(idx: number): Promise<void> {
  await page.locator(`[data-testid="target-row"][data-idx="${idx}"]`).click();
  await page.keyboard.press('Enter');
}

test("grep's lines, a question's passages and jq's outputs read as they came back", async () => {
  await pasteList(
    page,
    [
      `${site.origin}/widget grep="euros"`,
      `${site.origin}/widget grep="Lyon" context`,
      `${site.origin}/widget q="how much does the widget cost?"`,
      `${site.origin}/items.json jq=".items[] | .id"`,
      `${site.origin}/items.json jq=".items[].name" mode=text`,
    ].join('\n'),
  );
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('5');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');

  // grep: one line a line, as grep prints them. Read as Markdown, the two lines ran into one
  // paragraph, and with context the "--" between two groups underlined the line above it
  // into a heading.
  await open(0);
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-shape')).toBe('text');
  expect(await page.getByTestId('result-text').textContent()).toBe(`${PARAGRAPHS[2]}\n${PARAGRAPHS[4]}`);
  await page.screenshot({ path: screenshotPath('ui-modes-grep') });
  await open(1);
  await expect.poll(() => page.getByTestId('result-text').textContent()).toMatch(/\n--\n/);
  const lines = ((await page.getByTestId('result-text').textContent()) ?? '').split('\n');
  expect(lines).toContain(PARAGRAPHS[0]);
  expect(lines).toContain(PARAGRAPHS[3]);
  expect(await page.getByTestId('result-view').locator('h1, h2').count()).toBe(0);
  await page.screenshot({ path: screenshotPath('ui-modes-grep-context') });

  // question: its passages, each a paragraph of the article, rendered.
  await open(2);
  await expect.poll(() => page.getByTestId('result-markdown').textContent()).toContain(PARAGRAPHS[2]);
  await page.screenshot({ path: screenshotPath('ui-modes-question') });

  // jq: each output on its line, a 64-bit id as sent.
  await open(3);
  await expect.poll(() => page.getByTestId('result-text').textContent()).toBe('12345678901234567890\n2');
  await page.screenshot({ path: screenshotPath('ui-modes-jq') });
  // jq asked for text: its strings as jq -r prints them, read as text, not as JSON strings.
  await open(4);
  await expect.poll(() => page.getByTestId('result-text').textContent()).toBe('alpha\nbeta');
  expect(await page.getByTestId('result-view').getAttribute('data-shape')).toBe('text');
  expect(pageErrors(page)).toEqual([]);
});

test('a grep that matches no line, a question nothing answers and a page with no links are ok, and the row and the result say nothing was kept', async () => {
  await page.getByTestId('nav-new').click();
  await pasteList(page, [`${site.origin}/widget grep="dollars"`, `${site.origin}/widget q="zebra crossings?"`, `${site.origin}/widget grep="(?i)LYON"`, `${site.origin}/widget mode=links`].join('\n'));
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('4');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
  // Before, each was an "OK" row of 0 B with nothing beside its title, like a page with nothing on it.
  const chips = () => page.getByTestId('row-warning').evaluateAll((els) => els.map((e) => [e.closest('[data-idx]')?.getAttribute('data-idx'), e.textContent]));
  await expect.poll(chips).toEqual([
    ['0', 'no match'],
    ['1', 'no answer'],
    ['3', 'no links'],
  ]);
  // The job's header counts what found nothing by what, apart from the warnings: "OK with
  // warnings: no match 1, no answer 1" read as something gone wrong. Links mode finding no
  // link is such an answer too: it stood alone under "OK with warnings".
  // Chips of one count come in no set order.
  const nothing = () => page.locator('[data-testid="found-nothing-summary"] [data-testid="warning-chip"]').allTextContents();
  await expect.poll(async () => (await nothing()).sort()).toEqual(['no answer 1', 'no links 1', 'no match 1']);
  expect(await page.getByTestId('found-nothing-summary').textContent()).toMatch(/^Found nothing/);
  expect(await page.getByTestId('warning-summary').count()).toBe(0);
  await page.getByTestId('reason-summary').screenshot({ path: screenshotPath('ui-modes-found-nothing') });
  await page.locator('[data-testid="found-nothing-summary"] [data-warning="no_match"]').click();
  await expect.poll(() => page.getByTestId('target-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-idx')))).toEqual(['0']);
  await page.locator('[data-testid="found-nothing-summary"] [data-warning="no_match"]').click();
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(4);
  await open(0);
  await expect.poll(() => page.getByTestId('result-empty').textContent()).toMatch(/^No line matches the grep expression: the page was read, and nothing in it matched\. .*\(\?i\) at its start ignores case\.$/);
  await page.screenshot({ path: screenshotPath('ui-modes-no-match') });
  await open(1);
  await expect.poll(() => page.getByTestId('result-empty').textContent()).toMatch(/^No passage shares a word with the question: .* Ask with words the document would use\.$/);
  await open(2);
  await expect.poll(() => page.getByTestId('result-text').textContent()).toBe(`${PARAGRAPHS[0]}\n${PARAGRAPHS[3]}`);
  // The links of an article that links nowhere: it read "the document had no text" above its six paragraphs' worth of meta.
  await open(3);
  await expect.poll(() => page.getByTestId('result-empty').textContent()).toBe('The result is empty: the document was read, and it has no links.');
  expect(pageErrors(page)).toEqual([]);
});
