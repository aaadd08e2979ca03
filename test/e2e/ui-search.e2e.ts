/**
 * Search in the app, as a user does it: a finished job's results searched from the job view
 * and from the sidebar, a hit opened at its match, the hits exported, the job asked a
 * question. Real services over the bridge, real Chromium, a loopback site.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { makePdf } from '../helpers/fetch-pdf';
import { composeList, pageErrors, pasteList, runListToDone, type UiApp } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';
import type { SiftApi } from '../../src/shared/ipc/contract';

let app: UiApp;
let page: Page;
let server: http.Server;
let base: string;

const filler = (topic: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `<p>Section ${i + 1} on ${topic}. The board met, the figures were reviewed and the minutes were taken by the secretary as usual.</p>`).join('');

const PAGES: Record<string, string> = {
  '/report': `<h1>Annual report 2023</h1>${filler('operations', 40)}<p>In the last quarter net revenue rose to 4.2 billion, while costs fell.</p>${filler('outlook', 5)}`,
  '/report-2022': `<h1>Annual report 2022</h1><p>Revenue stayed flat; the net effect of currency moves was small.</p>${filler('operations', 6)}`,
  '/cafe': `<h1>Le café de la gare</h1><p>Un petit café près de la gare. Sa crème brûlée est célèbre depuis 1920.</p>${filler('la gare', 4)}`,
  '/tokyo': `<h1>首都の紹介</h1><p>東京都は日本の首都です。人口は約一千四百万人です。</p><p>交通機関が発達しています。</p>`,
};

/** /held answers only once released: the job stays running, its first result stored, while a test searches it. */
let heldArrived: () => void = () => {};
const heldRequest = new Promise<void>((resolve) => (heldArrived = resolve));
let releaseHeld: () => void = () => {};
const heldReleased = new Promise<void>((resolve) => (releaseHeld = resolve));
const QUOKKA = (n: number): string => `<h1>Island notes ${n}</h1><p>The quokka of Rottnest Island smiles at visitors, note ${n} says.</p>${filler('the island', 4)}`;
/** /hang was asked: its job has a target in flight that will not finish by itself. */
let hangArrived: () => void = () => {};
const hangRequest = new Promise<void>((resolve) => (hangArrived = resolve));

beforeAll(async () => {
  // A real paper (mozilla/pdf.js test/pdfs) whose first two lines are its title.
  const paper = readFileSync(path.join(__dirname, '../fixtures/pdfs/tracemonkey.pdf'));
  const pdf = makePdf({ pages: [['Quarterly figures', 'Nothing to see here'], ['Second page', 'More figures'], ['Third page', 'The hidden needle is here']], title: 'Figures' });
  server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    if (p === '/paper.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(paper);
    }
    if (p === '/figures.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(pdf);
    }
    // Never answered: the job stays running on it until it is cancelled (closeAllConnections ends it).
    if (p === '/hang') return hangArrived();
    if (p === '/held') {
      heldArrived();
      void heldReleased.then(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Island notes 2</title></head><body><article>${QUOKKA(2)}</article></body></html>`);
      });
      return;
    }
    const body = p === '/quokka' ? QUOKKA(1) : PAGES[p];
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<h1>Not here</h1>');
    }
    const title = /<h1>([^<]*)<\/h1>/.exec(body)?.[1] ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><article>${body}</article></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    if (!server) return resolve();
    server.closeAllConnections();
    server.close(() => resolve());
  });
});
appForFile({
  ready: (o) => {
    ({ app, page } = o);
  },
  // tracemonkey.pdf, a paper on JavaScript, says "undefined" on screen, in its own words.
  readScreen: false,
});
// Before the app closes (an afterAll after appForFile's runs first): a fetch of /held is answered, not cut by the close.
afterAll(() => releaseHeld());

/** Asks the shown job `question` from the Ask box, and waits for its passages. */
async function ask(question: string): Promise<void> {
  await page.getByTestId('ask-input').fill(question);
  await page.getByTestId('ask-submit').click();
  await expect.poll(() => page.getByTestId('ask-results').getAttribute('data-state')).toBe('done');
}

const searchDone = (box: 'job' | 'all') => () => page.getByTestId(`search-results-${box}`).getAttribute('data-state');
const hitIdxs = async (): Promise<string[]> => (await page.getByTestId('search-hit').evaluateAll((els) => els.map((e) => e.getAttribute('data-idx') ?? ''))) as string[];

test('a finished job is searched from its own box: the phrase finds its target first, with a marked snippet', async () => {
  await pasteList(page, ['/report', '/report-2022', '/cafe', '/tokyo', '/figures.pdf'].map((p) => `${base}${p}`).join('\n'));
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('5');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');

  await page.getByTestId('job-search-input').fill('"net revenue"');
  await expect.poll(searchDone('job')).toBe('done');
  expect(await hitIdxs()).toEqual(['0']);
  const hit = page.getByTestId('search-hit').first();
  expect(await hit.locator('mark').first().textContent()).toBe('net revenue');
  expect(await hit.textContent()).toMatch(/Annual report 2023/);
  expect(await hit.textContent()).toMatch(/#1 · line \d+/);
  expect(await page.getByTestId('search-count').textContent()).toBe('1 hit for "net revenue"');
  await page.screenshot({ path: screenshotPath('ui-search-job') });
});

test('a hit opens the result preview scrolled to the match, highlighted', async () => {
  await page.getByTestId('search-hit').first().click();
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight')).toMatch(/^net revenue$/i);
  // The match is far down a long article: the pane scrolled, and the highlighted range is in view.
  const pane = page.getByTestId('result-pane');
  expect(await pane.evaluate((el) => el.scrollTop)).toBeGreaterThan(200);
  const inView = await page.evaluate(() => {
    const h = CSS.highlights.get('sift-hit');
    const range = h ? ([...h][0] as Range | undefined) : undefined;
    const pane = document.querySelector('[data-testid="result-pane"]');
    if (!range || !pane) return false;
    const r = range.getBoundingClientRect();
    const p = pane.getBoundingClientRect();
    return r.height > 0 && r.top >= p.top && r.bottom <= p.bottom && range.toString().toLowerCase() === 'net revenue';
  });
  expect(inView).toBe(true);
  await page.screenshot({ path: screenshotPath('ui-search-hit') });
});

test('Export hits writes the hits with their citations as Markdown and as CSV', async () => {
  await page.getByTestId('job-search-input').fill('revenue');
  await expect.poll(searchDone('job')).toBe('done');
  expect((await hitIdxs()).sort()).toEqual(['0', '1']);
  // The open result's highlight follows the box: this query's word, not "net revenue".
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight')).toBe('revenue');
  const jobId = (await page.getByTestId('job-view').getAttribute('data-job-id')) ?? '';

  await page.getByTestId('export-hits-md').click();
  await expect.poll(() => page.getByText(/Saved 2 hits to/).count()).toBe(1);
  const md = readFileSync(`${app.exportDir}/sift-search-revenue.md`, 'utf8');
  expect(md).toMatch(/^# Search: revenue\n\n2 hits in job /);
  expect(md).toContain(`— job ${jobId}, target #1, line `);
  expect(md).toContain('**revenue**');
  expect(md).toContain(`<${base}/report>`);

  await page.getByTestId('export-hits-csv').click();
  await expect.poll(() => page.getByText(/sift-search-revenue\.csv/).count()).toBe(1);
  const csv = readFileSync(`${app.exportDir}/sift-search-revenue.csv`, 'utf8').replace(/^\uFEFF/, '').split('\r\n');
  expect(csv[0]).toBe('rank,job,target,url,title,field,line,page,score,snippet,also_in');
  expect(csv[1]).toMatch(new RegExp(`^1,${jobId},\\d,http://127\\.0\\.0\\.1:\\d+/report`));
  expect(csv[1]).toContain('«');
  await page.screenshot({ path: screenshotPath('ui-search-export') });
});

test('a PDF hit cites its page; a malformed query is searched as plain words; an empty box says what to type', async () => {
  await page.getByTestId('job-search-input').fill('needle');
  await expect.poll(searchDone('job')).toBe('done');
  expect(await page.getByTestId('search-hit').first().textContent()).toMatch(/#5 · page 3 · line \d+/);
  await page.getByTestId('search-hit').first().click();
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight')).toBe('needle');
  // A PDF's Markdown reads as Markdown, with each page marked; the match is on the page cited.
  expect(await page.getByTestId('result-view').getAttribute('data-shape')).toBe('markdown');
  const marks = page.getByTestId('page-mark');
  expect(await marks.evaluateAll((els) => els.map((e) => e.getAttribute('data-page')))).toEqual(['1', '2', '3']);
  expect(await marks.nth(2).evaluate((el) => el.nextSibling?.textContent ?? '')).toContain('The hidden needle is here');
  expect(await marks.nth(2).evaluate((el) => getComputedStyle(el, '::before').content)).toBe('"Page 3"');
  await page.screenshot({ path: screenshotPath('ui-search-pdf-hit') });

  // page:3 reads as a filter, and the search narrows by title: and url: only: it said "No hits for page:3" and no more.
  await page.getByTestId('job-search-input').fill('needle page:3');
  await expect.poll(searchDone('job')).toBe('done');
  expect(await page.getByTestId('search-count').textContent()).toBe('No hits for needle page:3');
  expect(await page.getByTestId('search-filter-note').textContent()).toBe(
    'The search narrows by title: and url: only: page:3 was searched as the words “page 3”. Search for the words alone; a hit in a PDF says which page it is on.',
  );
  await page.getByTestId('job-search-input').fill('needle');
  await expect.poll(searchDone('job')).toBe('done');
  expect(await page.getByTestId('search-filter-note').count()).toBe(0);

  await page.getByTestId('job-search-input').fill('"net revenue');
  await expect.poll(searchDone('job')).toBe('done');
  // It said "(searched as plain words)" alone, the same for an open quote, an open ( and "revenue OR".
  expect(await page.getByTestId('search-count').textContent()).toMatch(/\(searched as plain words: the " is not closed; add the closing " to search the exact phrase\)$/);
  expect((await hitIdxs()).sort()).toEqual(['0', '1']);
  // title: with its word still to come: it was searched as the word "title", and said "No hits for title:".
  await page.getByTestId('job-search-input').fill('title:');
  await expect.poll(() => page.getByTestId('search-note').textContent()).toBe(
    '"title:" names where to search, with no word after it to find there. Type the word right after the colon: title:report finds the results with report in their title.',
  );

  // A pasted paragraph is more than a search: the box says how many words it takes.
  await page.getByTestId('job-search-input').fill(Array.from({ length: 80 }, (_, i) => `word${i}`).join(' '));
  await expect.poll(searchDone('job')).toBe('done');
  await expect.poll(() => page.getByTestId('search-error').textContent()).toMatch(/at most 64 words and phrases; this one has 80\..*exact phrase/);
  // Said once, by the error: the status is silent.
  expect(await page.getByTestId('search-count').textContent()).toBe('');
  await page.screenshot({ path: screenshotPath('ui-search-too-long') });
  // A pasted paragraph past the characters a search sends says so: before, "invalid request for
  // search at query", with a hint to restart the window and report it.
  await page.getByTestId('job-search-input').fill('首都'.repeat(1050));
  await expect.poll(() => page.getByTestId('search-error').textContent()).toMatch(/A search takes at most 2,000 characters; this one has 2,100\..*exact phrase/);

  await page.getByTestId('job-search-input').fill('');
  await page.getByTestId('job-search-input').press('Escape');
  // The table is back, and Esc did not touch the (finished) job.
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(5);
  expect(await page.getByTestId('job-header').getAttribute('data-status')).toBe('done');
  // The emptied box says, under it and beside the table, what can be typed: before, nothing did.
  const help = page.getByTestId('job-search-help');
  await page.getByTestId('job-search-input').focus();
  await expect.poll(() => help.isVisible()).toBe(true);
  expect(await help.textContent()).toBe(
    'Type words to find them in this job\'s results. "An exact phrase", prefix*, OR and NOT (or -word) work too, and title:WORD and url:WORD search the title or the URL alone.',
  );
  expect(await page.getByTestId('job-search-input').getAttribute('aria-describedby')).toBe('job-search-help');
  expect(await page.getByTestId('target-row').count()).toBe(5);
  await page.screenshot({ path: screenshotPath('ui-search-job-help') });
  // Shown over the table's top, not above it: focus leaving moves no row under the pointer.
  const rowTop = await page.getByTestId('target-row').first().evaluate((e) => e.getBoundingClientRect().top);
  await page.getByTestId('job-header').click({ position: { x: 5, y: 5 } });
  await expect.poll(() => help.isVisible()).toBe(false);
  expect(await page.getByTestId('target-row').first().evaluate((e) => e.getBoundingClientRect().top)).toBe(rowTop);
  // Typed in, the help gives way to the hits.
  await page.getByTestId('job-search-input').fill('revenue');
  await expect.poll(searchDone('job')).toBe('done');
  expect(await help.count()).toBe(0);
});

test('typing a -word first, key by key, says calmly that a word to find is still to come: no red alert at each key', async () => {
  const box = page.getByTestId('job-search-input');
  await box.fill('');
  const said: Record<string, string> = {
    '-': 'Search finds words, numbers and emoji; "-" has none of them.',
    '-d': '"-d" only says what to leave out, and there is no word to find to leave it out of. Add a word to find, and the -word leaves out the results that hold it: revenue -draft.',
    '-dr': '"-dr" only says what to leave out, and there is no word to find to leave it out of. Add a word to find, and the -word leaves out the results that hold it: revenue -draft.',
  };
  for (const [typed, note] of Object.entries(said)) {
    await box.press(typed.at(-1) as string);
    await expect.poll(() => page.getByTestId('search-results-job').getAttribute('data-state')).toBe('done');
    await expect.poll(() => page.getByTestId('search-note').textContent()).toContain(note);
    expect(await page.getByTestId('search-results-job').getByRole('alert').count(), typed).toBe(0);
    expect(await page.getByTestId('search-error').count(), typed).toBe(0);
    if (typed === '-dr') await page.screenshot({ path: screenshotPath('ui-search-minus-typed') });
  }
  // The word to find after it: the note gives way to the hits, what holds "draft" left out.
  await box.pressSequentially(' revenue');
  await expect.poll(() => page.getByTestId('search-count').textContent()).toBe('2 hits for -dr revenue');
  expect(await page.getByTestId('search-note').count()).toBe(0);
  await box.fill('');
  await box.press('Escape');
  await expect.poll(() => page.getByTestId('target-row').count()).toBe(5);
});

test('the sidebar box searches every job; a hit opens its job at the match (accents and CJK found)', async () => {
  await page.getByTestId('sidebar-search-input').fill('creme brulee OR 人口');
  await expect.poll(() => page.getByTestId('search-view').count()).toBe(1);
  await expect.poll(searchDone('all')).toBe('done');
  expect((await hitIdxs()).sort()).toEqual(['2', '3']);
  expect(await page.getByTestId('search-results-all').locator('mark').allTextContents()).toEqual(expect.arrayContaining(['crème', 'brûlée', '人口']));
  await page.screenshot({ path: screenshotPath('ui-search-all') });
  // Emptied, the search of every job says what can be typed, title: and url: among it in the
  // README's words; before, it named neither, and only those who had read the README found a title.
  await page.getByTestId('sidebar-search-input').fill('');
  await expect.poll(() => page.getByTestId('search-results-all').textContent()).toBe(
    'Type words to find them in every stored result. "An exact phrase", prefix*, OR and NOT (or -word) work too, and title:WORD and url:WORD search the title or the URL alone.',
  );
  await page.screenshot({ path: screenshotPath('ui-search-help') });
  await page.getByTestId('sidebar-search-input').fill('creme brulee OR 人口');
  await expect.poll(searchDone('all')).toBe('done');
  await expect.poll(async () => (await hitIdxs()).sort()).toEqual(['2', '3']);
  await page.locator('[data-testid="search-hit"][data-idx="3"]').click();
  await expect.poll(() => page.getByTestId('job-view').count()).toBe(1);
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight')).toBe('人口');
});

test('Ask this job returns the passages that answer a question, with where each is', async () => {
  await page.getByTestId('search-mode-ask').click();
  await ask('what did net revenue rise to?');
  // The passage that answers first; one sharing only a small word with the question is left out.
  expect(await page.getByTestId('ask-passage').count()).toBeLessThanOrEqual(2);
  const first = page.getByTestId('ask-passage').first();
  expect(await first.textContent()).toMatch(/net revenue rose to 4\.2 billion/);
  expect(await first.textContent()).toMatch(/Annual report 2023#1 · line \d+/);
  await first.click();
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight')).toMatch(/In the last quarter net revenue/);
  await page.screenshot({ path: screenshotPath('ui-search-ask') });
  expect(pageErrors(page)).toEqual([]);
});

test('a page\'s heading, the title, is said once, over the passage under it, which opens lit, not at a stray "#"', async () => {
  await ask('which annual report is from 2022?');
  const first = page.getByTestId('ask-passage').first();
  // Before, "Annual report 2022" under "Annual report 2022"; then the heading alone.
  expect(await first.locator('.hit-title').textContent()).toBe('Annual report 2022');
  expect(await first.locator('.snippet').textContent()).toBe('Revenue stayed flat; the net effect of currency moves was small.');
  expect(await first.textContent()).toMatch(/^Annual report 2022#2 · line 3Revenue stayed flat/);
  await first.click();
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight')).toMatch(/^Revenue stayed flat/);
  // A question of signs is not asked, and says so in a question's terms (it had search's hint about OR and NOT,
  // under "No passages answering: ???").
  await page.getByTestId('ask-input').fill('???');
  await page.getByTestId('ask-submit').click();
  await expect.poll(() => page.getByTestId('ask-results').textContent()).toMatch(/A question is read by its words, numbers and emoji; "\?\?\?" has none of them\..*Ask in words/);
  // Said once, by the error: the status is silent.
  expect(await page.getByTestId('ask-count').textContent()).toBe('');
  expect(await page.getByTestId('ask-results').textContent()).not.toMatch(/OR and NOT/);
  await page.screenshot({ path: screenshotPath('ui-search-ask-signs') });
  // A question of function words only names nothing to look for: it was answered with the
  // passages holding "what", "is" and "it".
  await page.getByTestId('ask-input').fill('what is it?');
  await page.getByTestId('ask-submit').click();
  await expect.poll(() => page.getByTestId('ask-results').textContent()).toMatch(/The question has no word that names what to look for.*Ask in words that name what you want/);
  expect(await page.getByTestId('ask-count').textContent()).toBe('');
  expect(await page.getByTestId('ask-passage').count()).toBe(0);
  await page.screenshot({ path: screenshotPath('ui-search-ask-names-nothing') });
  expect(pageErrors(page)).toEqual([]);
});

test('after "Fetch all again" every result is one hit, the new job’s, marked as also in the older job', async () => {
  const old = await page.getByTestId('job-view').getAttribute('data-job-id');
  await page.getByTestId('run-all').click();
  await expect.poll(() => page.getByTestId('job-view').getAttribute('data-job-id')).not.toBe(old);
  const fresh = await page.getByTestId('job-view').getAttribute('data-job-id');
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
  // The box still holds the last search; the same words typed again ask again.
  await page.getByTestId('sidebar-search-input').fill('');
  await page.getByTestId('sidebar-search-input').fill('creme brulee OR 人口');
  await expect.poll(() => page.getByTestId('search-view').count()).toBe(1);
  await expect.poll(searchDone('all')).toBe('done');
  await expect.poll(async () => (await hitIdxs()).sort()).toEqual(['2', '3']);
  const where = await page.getByTestId('search-results-all').locator('.hit-where').allTextContents();
  expect(where).toEqual([expect.stringMatching(new RegExp(`^job ${fresh!.slice(0, 8)} · #\\d · line \\d+ · also in 1 older job$`)), expect.stringMatching(/also in 1 older job$/)]);
  await page.screenshot({ path: screenshotPath('ui-search-copies') });
  expect(pageErrors(page)).toEqual([]);
});

test('a job deleted while its hits are shown (the expiry sweep, another window) leaves them: each hit opens the older copy', async () => {
  // The last test left two jobs of the same list, the sidebar's hits the newer one's.
  await page.getByTestId('sidebar-search-input').fill('');
  await page.getByTestId('sidebar-search-input').fill('creme brulee OR 人口');
  await expect.poll(searchDone('all')).toBe('done');
  const jobs = await page.evaluate(async () => (await (window as unknown as { sift: SiftApi }).sift.listJobs()).jobs.sort((a, b) => b.createdAt - a.createdAt).map((j) => j.id));
  expect(jobs).toHaveLength(2);
  const [fresh, older] = jobs as [string, string];
  expect(await page.getByTestId('search-results-all').locator('.hit-where').first().textContent()).toMatch(new RegExp(`^job ${fresh.slice(0, 8)} `));
  // Deleted the way the expiry sweep does it: main tells the window, which is showing the hits.
  await page.evaluate((id) => (window as unknown as { sift: SiftApi }).sift.deleteJob({ id }), fresh);
  await expect.poll(() => page.getByTestId('search-results-all').locator('.hit-where').allTextContents()).toEqual([
    expect.stringMatching(new RegExp(`^job ${older.slice(0, 8)} · #\\d · line \\d+$`)),
    expect.stringMatching(new RegExp(`^job ${older.slice(0, 8)} · #\\d · line \\d+$`)),
  ]);
  await page.locator('[data-testid="search-hit"][data-idx="3"]').click();
  await expect.poll(() => page.getByTestId('job-view').getAttribute('data-job-id')).toBe(older);
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight')).toBe('人口');
  expect(pageErrors(page)).toEqual([]);
});

test('a search of a running job follows it: a result stored after the words were typed joins the hits, and the count says so', async () => {
  await composeList(page, [`${base}/quokka`, `${base}/held`], { fromNew: true });
  await page.getByTestId('submit').click();
  // Targets run in order: the second is asked for once the first is stored.
  await heldRequest;
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status')).toBe('running');
  // An earlier test left the box asking questions.
  await page.getByTestId('search-mode-find').click();
  await page.getByTestId('job-search-input').fill('quokka');
  await expect.poll(searchDone('job')).toBe('done');
  await expect.poll(hitIdxs).toEqual(['0']);
  expect(await page.getByTestId('search-count').textContent()).toBe('1 hit for quokka');

  releaseHeld();
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
  // The box runs its query again once the stored result's event comes (at most once a second).
  await expect.poll(async () => (await hitIdxs()).sort(), { timeout: 15_000 }).toEqual(['0', '1']);
  await expect.poll(() => page.getByTestId('search-count').textContent()).toBe('2 hits for quokka');
  await page.screenshot({ path: screenshotPath('ui-search-running') });
  expect(pageErrors(page)).toEqual([]);
});

test("a hit in a grep's result is cited by its line in the page, and opens the stored lines at the match", async () => {
  await runListToDone(page, [`${base}/report grep="net revenue|currency"`], { fromNew: true });
  await page.getByTestId('search-mode-find').click();
  await page.getByTestId('job-search-input').fill('revenue');
  await expect.poll(searchDone('job')).toBe('done');
  expect(await hitIdxs()).toEqual(['0']);
  // The grep kept one line; the page's Markdown has it far down, after 40 sections.
  const where = (await page.getByTestId('search-hit').first().textContent()) ?? '';
  const line = Number(/line (\d+) of the document/.exec(where)?.[1]);
  expect(line).toBeGreaterThan(40);
  await page.getByTestId('search-hit').first().click();
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight')).toBe('revenue');
  await page.screenshot({ path: screenshotPath('ui-search-grep-line') });
  expect(pageErrors(page)).toEqual([]);
});

test('Ask this job on a job with a failed target says what it read: an answer, and no answer, name the target not read', async () => {
  await composeList(page, [`${base}/quokka`, `${base}/missing`], { fromNew: true });
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('partial');
  await page.getByTestId('search-mode-ask').click();
  await ask('what does the quokka smile at?');
  expect(await page.getByTestId('ask-passage').first().textContent()).toMatch(/smiles at visitors/);
  expect(await page.getByTestId('ask-scope').textContent()).toBe('Read 1 result of 2 targets. Not read: 1 failed.');
  // Before: 'No result in this job shares words with the question', with half the job never read.
  await page.getByTestId('ask-input').fill('when do the trains leave?');
  await page.getByTestId('ask-submit').click();
  await expect.poll(() => page.getByTestId('ask-count').textContent()).toBe('No passages answering: when do the trains leave?');
  expect(await page.getByTestId('ask-scope').textContent()).toBe('No passage of the 1 result read shares words with the question; try other words, ones the pages would use. Not read: 1 failed.');
  await page.screenshot({ path: screenshotPath('ui-search-ask-scope') });
  expect(pageErrors(page)).toEqual([]);
});

test('Ask this job on a cancelled job says its target was not fetched as the job ended, not that it will be', async () => {
  await composeList(page, [`${base}/quokka`, `${base}/hang`], { fromNew: true });
  await page.getByTestId('submit').click();
  await hangRequest;
  await expect.poll(() => page.locator('[data-testid="target-row"][data-idx="0"]').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
  await page.getByTestId('cancel-job').click();
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('cancelled');
  await page.getByTestId('search-mode-ask').click();
  await ask('what does the quokka smile at?');
  expect(await page.getByTestId('ask-passage').first().textContent()).toMatch(/smiles at visitors/);
  // Before: '1 is not fetched yet', of a job that will fetch nothing more.
  expect(await page.getByTestId('ask-scope').textContent()).toBe('Read 1 result of 2 targets. Not read: 1 was not fetched, as the job ended first.');
  expect(pageErrors(page)).toEqual([]);
});

test('Ask this job on a PDF says its title once: the title heads the passage under it, and the passage opens at its own line', async () => {
  await runListToDone(page, [`${base}/paper.pdf`, `${base}/quokka`], { fromNew: true });
  await page.getByTestId('search-mode-ask').click();
  await ask('which paper is on trace-based just-in-time type specialization for dynamic languages?');
  // The PDF's Markdown heads it with its title ("# Trace-based … Languages"), which comes back,
  // as a page's h1 does, with the passage under it: the abstract, under its "Abstract".
  const best = page.getByTestId('ask-passage').first();
  await best.waitFor();
  await page.screenshot({ path: screenshotPath('ui-search-ask-pdf-title') });
  expect(await best.locator('.hit-title').textContent()).toBe('Trace-based Just-in-Time Type Specialization for Dynamic Languages');
  expect(await best.locator('.hit-where').textContent()).toMatch(/^#1 · page 1 · line (\d+)$/);
  expect(Number(/line (\d+)$/.exec((await best.locator('.hit-where').textContent()) ?? '')?.[1])).toBeGreaterThan(1);
  expect(await best.locator('.snippet').textContent()).toMatch(/^Abstract\s*Dynamic languages such as JavaScript/);
  // No passage says the title again under it, as the PDF wraps it: "…for Dynamic" / "Languages".
  for (const text of await page.getByTestId('ask-passage').locator('.snippet').allTextContents()) expect(text).not.toMatch(/Trace-based Just-in-Time|Specialization for Dynamic/);
  await best.click();
  // It opens at the passage's own first line, marked: it was found by the heading shown over it,
  // "Abstract", from its line on, in section 7's "the LIR abstract syntax".
  // To a word's end: the mark stopped at "statical" of "statically", 80 characters in.
  await expect.poll(() => page.getByTestId('result-view').getAttribute('data-highlight')).toBe('Dynamic languages such as JavaScript are more difficult to compile than');
  await page.screenshot({ path: screenshotPath('ui-search-ask-pdf-opened') });
  expect(pageErrors(page)).toEqual([]);
});
