/**
 * The real services bound to the loopback bridge, with a stand-in for the system dialogs
 * (the folder it "chooses" is a temp dir), for the UI tests.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createServices, type Services, type ServicesOptions } from '../../src/main/services';
import type { Settings } from '../../src/shared/settings';
import { REASONS } from '../../src/shared/reasons';
import { META_LABELS } from '../../src/renderer/src/lib/meta';
import { startBridge, type Bridge } from '../bridge/host';
import { ensureBuilt, RENDERER_DIR } from './build';
import { launchChromium, openBridgedPage } from './chromium';

export interface UiApp {
  services: Services;
  bridge: Bridge;
  dbPath: string;
  dataDir: string;
  exportDir: string;
  /** Names of the events main emitted, in order. */
  events: string[];
  close(): Promise<void>;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startUiApp(o: { dataDir?: string; settings?: Partial<Settings>; fetch?: ServicesOptions['fetch']; listFile?: string | (() => string | null) } = {}): Promise<UiApp> {
  const dataDir = o.dataDir ?? tempDir('sift-ui-');
  const dbPath = path.join(dataDir, 'sift.db');
  const exportDir = tempDir('sift-ui-export-');
  // Services need emit before the bridge exists; events go to whichever bridge is bound.
  const sink: { bridge?: Bridge; events: string[] } = { events: [] };
  const services = createServices({
    dbPath,
    dataDir,
    host: 'bridge',
    logFiles: [],
    settings: { allowPrivate: true, ...o.settings },
    fetch: o.fetch,
    emit: (event, payload) => {
      sink.events.push(event);
      sink.bridge?.emit(event, payload);
    },
    dialogs: {
      // What the system open dialog would answer (a function: what it answers this time).
      openFile: async () => (typeof o.listFile === 'function' ? o.listFile() : (o.listFile ?? null)),
      chooseFolder: async () => exportDir,
      saveFile: async (p) => path.join(exportDir, path.basename(p)),
    },
  });
  const b = await startBridge({ handlers: services.handlers, staticDir: RENDERER_DIR, checkResponses: true });
  sink.bridge = b;
  return {
    services,
    bridge: b,
    events: sink.events,
    dbPath,
    dataDir,
    exportDir,
    async close() {
      await b.close();
      await services.close();
    },
  };
}

/** Drops a file on the drop zone the way a user's drag does: a DataTransfer built in the page. */
export async function dropFile(page: Page, name: string, content: string | Buffer, type = 'text/plain'): Promise<void> {
  // Bytes cross into the page as a plain array (evaluate's arguments are JSON).
  const data = typeof content === 'string' ? content : Array.from(content);
  await page.getByTestId('drop-zone').evaluate(
    (el, f) => {
      const dt = new DataTransfer();
      dt.items.add(new File([typeof f.data === 'string' ? f.data : new Uint8Array(f.data)], f.name, { type: f.type }));
      for (const kind of ['dragenter', 'dragover', 'drop']) {
        el.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: dt }));
      }
    },
    { name, data, type },
  );
}

/** Drops links as a browser does when they are dragged out of a page. */
export async function dropLinks(page: Page, urls: string[]): Promise<void> {
  await page.getByTestId('drop-zone').evaluate((el, list) => {
    const dt = new DataTransfer();
    dt.setData('text/uri-list', list.join('\r\n'));
    dt.setData('text/plain', list.join('\n'));
    el.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
  }, urls);
}

/**
 * The texts of the elements with this test id that their table cell cuts off (wider than the
 * cell, or running past its right edge): a reason chip read as "not found (so…", a URL whose
 * path end CSS hid. Empty when each is shown whole.
 */
export function cutInCells(page: Page, testId: string): Promise<(string | null)[]> {
  return page.getByTestId(testId).evaluateAll((els) =>
    els
      .filter((e) => {
        const cell = e.closest('[role="gridcell"]') ?? e;
        return e.scrollWidth > cell.clientWidth + 1 || e.getBoundingClientRect().right > cell.getBoundingClientRect().right + 1;
      })
      .map((e) => e.textContent),
  );
}

export function pageErrors(page: Page): string[] {
  return (page as Page & { siftErrors?: string[] }).siftErrors ?? [];
}

/** What a user must never read unless a test means it: the marks of an unexpected error. */
export const INTERNAL_ERROR_TEXT = /internal error|bug in Sift|Sift bug/i;
/**
 * A value the UI printed with no words for it. Case-sensitive: "nan" and "Undefined" are
 * words a fetched page may hold; "NaN" is JavaScript's, and a unit may follow it ("NaNs").
 */
export const RAW_VALUE_TEXT = /\bundefined\b|\bNaN|\[object Object\]/;

/**
 * The codes of Sift's errors (SiftError's `code`, crossing IPC beside the message): names for
 * programs, each with a message for people. Those of one word ("busy", "blocked") are words.
 */
const ERROR_CODES = [
  'bad_url', 'bad_export_target', 'bad_file_name', 'bad_format', 'bad_setting', 'caller_busy', 'db_not_sift', 'db_not_writable',
  'disk_full', 'empty_query', 'export_failed', 'forbidden_sender', 'invalid_request', 'job_running', 'list_too_big', 'list_too_long',
  'no_database', 'no_room', 'no_targets', 'not_a_list', 'not_found', 'not_running', 'out_not_writable', 'query_too_long',
  'settings_not_saved', 'settings_reset', 'target_failed', 'too_large', 'too_many_targets', 'upstream_4xx', 'upstream_5xx', 'upstream_busy', 'vague_question',
];

/**
 * Sift's or the system's own words, shown raw: a stored reason or error code where the app
 * has words for it ("needs_js" for "needs JavaScript", "too_many_targets"), a system error
 * code (ECONNREFUSED, ERR_…), a JavaScript error's name, a stack frame. Case-sensitive, whole
 * words: "soft404" inside a file name (soft404_page.html) is the file's.
 */
export const CODE_TEXT = new RegExp(
  [
    `\\b(?:${[...REASONS.filter((r) => /[_\d]/.test(r)), ...ERROR_CODES].join('|')})\\b`,
    '\\bE(?:CONN(?:REFUSED|RESET|ABORTED)|NOTFOUND|TIMEDOUT|HOSTUNREACH|NETUNREACH|ADDRINUSE|ACCES|NOENT|PIPE|AI_AGAIN)\\b',
    '\\bERR_[A-Z_]{3,}\\b',
    '\\b(?:TypeError|ReferenceError)\\b',
    '^\\s*at .*:\\d+:\\d+\\)?$',
  ].join('|'),
  'm',
);

/**
 * The names of the command line's world in the app's own words: a meta field the Meta table
 * shows under a label ("snapshot_time" is "Archived at" there), and Sift's environment
 * variables (SIFT_CHROMIUM), which the app is not started with. Read in the app's own
 * attributes only: a page's text or a JSON result may hold the same words as its own.
 */
export const CLI_NAMES_TEXT = new RegExp(`\\b(?:${Object.keys(META_LABELS).filter((k) => k.includes('_')).join('|')})\\b|\\bSIFT_[A-Z_]{3,}\\b`);

const hitIn = (text: string, patterns: RegExp[]): RegExpExecArray | null => patterns.reduce<RegExpExecArray | null>((hit, re) => hit ?? re.exec(text), null);

function fail(where: string, text: string, hit: RegExpExecArray): never {
  const at = Math.max(0, hit.index - 200);
  throw new Error(`the page says "${hit[0]}"${where}: …${text.slice(at, hit.index + 200)}…`);
}

/**
 * Fails when the page's visible text says "internal error" or "bug in Sift" (issue 11: a
 * cancel shown as a bug), or shows a value printed raw or a code word; and so when a tooltip
 * or a screen reader's description (title, aria-description) does, or names a meta field or
 * an environment variable (s24: a warning's tooltip said "(snapshot_time)"). Run after every
 * e2e test; a test that expects it says so.
 */
export async function expectNoInternalErrorText(page: Page, expected = false): Promise<void> {
  if (page.isClosed() || expected) return;
  const text = await page.locator('body').innerText();
  const shown = hitIn(text, [INTERNAL_ERROR_TEXT, RAW_VALUE_TEXT, CODE_TEXT]);
  if (shown) fail('', text, shown);
  const attributes = await page.locator('[title], [aria-description]').evaluateAll((els) => els.flatMap((e) => [e.getAttribute('title') ?? '', e.getAttribute('aria-description') ?? '']));
  // The Meta table's labels name their field on hover ("Final URL" is final_url), as the exports write it: a name on its own, not words that point at one.
  const said = attributes.filter((t) => !Object.hasOwn(META_LABELS, t)).join('\n');
  const hit = hitIn(said, [INTERNAL_ERROR_TEXT, RAW_VALUE_TEXT, CODE_TEXT, CLI_NAMES_TEXT]);
  if (hit) fail(' in a tooltip or description', said, hit);
}

/** Counts, badges and buttons: never cut by their box, never past the window's edge. A count cut reads as another number. */
const WHOLE_TEXT = [
  '.stat dd', '.job-item-count', '.job-item-total', '.job-name-count', '.badge', '.reason-chip', 'button', '[data-testid="search-count"]',
  '[data-testid="ask-count"]', '[data-testid^="count-"]', '.job-id',
  // A URL cut at its end by CSS lost what tells one target of a site from the next ("…/acc…").
  '.result-url',
].join(', ');
/**
 * Labels read as one phrase: a count and its word, a button, a badge, a column's header. At
 * 800 px the parsed list's "0 duplicates" broke after its number and its column header took
 * five lines of a 220 px column.
 */
const ONE_LINE = [
  '.count', '.counts > span', '.parsed-head > span', '.file-chip strong', '.stat dt', '.stat dd', '.badge', '.reason-chip', 'button', '.target-head > *', '.job-id',
].join(', ');
/** Rows whose items sit side by side: one drawn over another reads as neither. */
const SIDE_BY_SIDE = ['.job-title', '.job-title h2', '.job-stats', '.job-actions', '.job-item-top', '.job-item-name', '.reason-summary', '.reason-group', '.job-search', '.result-toolbar', '.export-status', '.submit-bar', '.carried-options'].join(', ');

/**
 * Fails when a count, badge or button shown is cut by its box or runs past the window, or when
 * two items of a row overlap: what a screenshot at 800 px shows and a text check cannot.
 */
export async function expectNothingCutOrOverlapping(page: Page): Promise<void> {
  const problems = await page.evaluate(
    ({ whole, rows, oneLine }) => {
      const out: string[] = [];
      const shown = (e: Element): DOMRect | null => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden' ? r : null;
      };
      const name = (e: Element): string => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} "${(e.textContent ?? '').trim().slice(0, 60)}"`;
      for (const e of document.querySelectorAll<HTMLElement>(whole)) {
        const r = shown(e);
        if (!r || e.closest('.visually-hidden')) continue;
        if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) out.push(`${name(e)} is cut (${e.scrollWidth} px of text in ${e.clientWidth})`);
        if (r.right > window.innerWidth + 1) out.push(`${name(e)} runs past the window (${Math.round(r.right)} > ${window.innerWidth})`);
      }
      for (const e of document.querySelectorAll<HTMLElement>(oneLine)) {
        // A button laid out in rows of its own (a job in the list: name, status, progress) is not one phrase.
        const rows = [...e.querySelectorAll('*')].some((c) => !/^inline|^contents$|^none$/.test(getComputedStyle(c).display));
        if (!shown(e) || rows || e.closest('.visually-hidden')) continue;
        const range = document.createRange();
        range.selectNodeContents(e);
        // One line box per distinct top: the rects of one line share it to within a pixel or two.
        const tops: number[] = [];
        for (const r of range.getClientRects()) if (r.width > 0 && !tops.some((t) => Math.abs(t - r.top) < r.height / 2)) tops.push(r.top);
        if (tops.length > 1) out.push(`${name(e)} wraps onto ${tops.length} lines`);
      }
      for (const row of document.querySelectorAll(rows)) {
        const items = [...row.children].map((c) => [c, shown(c)] as const).filter((x): x is readonly [Element, DOMRect] => x[1] !== null);
        for (let i = 0; i < items.length; i++) {
          for (let j = i + 1; j < items.length; j++) {
            const [a, ra] = items[i]!;
            const [b, rb] = items[j]!;
            const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
            const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
            if (w > 1 && h > 1) out.push(`${name(a)} overlaps ${name(b)}`);
          }
        }
      }
      return out;
    },
    { whole: WHOLE_TEXT, rows: SIDE_BY_SIDE, oneLine: ONE_LINE },
  );
  if (problems.length) throw new Error(`what a user cannot read whole:\n${problems.join('\n')}`);
}

/**
 * Puts a long list in the paste box at once, as a paste does. Playwright's fill() takes
 * seconds per thousand lines in headless Chromium (5 s for 1,000 in a bare textarea).
 */
export async function pasteList(page: Page, text: string): Promise<void> {
  await page.getByTestId('paste-box').evaluate((el, value) => {
    // The prototype's setter, so React's value tracker sees a change and fires onChange.
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

const HARBOUR_BODY = `<article><h1>Quarterly figures</h1>${'<p>The harbour handled more ships this quarter than in any quarter before, and the new crane made the difference.</p>'.repeat(4)}</article>`;

/** An article page Readability keeps, with the title and author (a meta tag, when given) a test puts to the screen. */
export const articlePage = (title: string, author?: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${author === undefined ? '' : `<meta name="author" content="${author}">`}</head><body>${HARBOUR_BODY}</body></html>`;

/**
 * The composer holding `lines` (a URL each, with any options of its own), once every line is
 * counted as a URL: ready to submit. `fromNew` opens the composer from New first, as a user
 * does from a job's view.
 */
export async function composeList(page: Page, lines: string[], o: { fromNew?: boolean } = {}): Promise<void> {
  if (o.fromNew) await page.getByTestId('nav-new').click();
  await pasteList(page, lines.join('\n'));
  await page.getByTestId('count-valid').filter({ hasText: new RegExp(`^${lines.length}$`) }).waitFor();
}

/** A new job of `lines` from the composer (see composeList), submitted and run until every target is done; returns its id. */
export async function runListToDone(page: Page, lines: string[], o: { fromNew?: boolean } = {}): Promise<string> {
  await composeList(page, lines, o);
  return submitToDone(page);
}

/**
 * Submits the composer's list with Ctrl+Enter and waits for that job, by its id, to be done;
 * returns the id. Any done header would do before, and a list submitted again is the earlier
 * job (the runner's rule 1), shown done at once with its first run's results: a test went on
 * with nothing run. That job is refused here, by name.
 */
export async function submitToDone(page: Page, timeout = 60_000): Promise<string> {
  // From the composer, so the job view that comes next is this submit's, new or reused.
  await page.getByTestId('composer').waitFor();
  const listed = await page.getByTestId('job-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-job-id')));
  await page.keyboard.press('Control+Enter');
  const id = await page.getByTestId('job-view').getAttribute('data-job-id', { timeout });
  if (!id) throw new Error('the job view shows no job id');
  if (listed.includes(id)) throw new Error(`the list is already job ${id}, shown with the results of its earlier run: nothing ran. Give the test's list URLs of its own.`);
  await page.locator(`[data-testid="job-view"][data-job-id="${id}"] [data-testid="job-header"][data-status="done"]`).waitFor({ timeout });
  return id;
}

/** Selects row `idx`, opens its result with Enter, and waits for the pane's Meta. */
export async function openResultMeta(page: Page, idx: number): Promise<void> {
  await page.locator(`[data-testid="target-row"][data-idx="${idx}"]`).click();
  await page.keyboard.press('Enter');
  await page.locator(`[data-testid="result-pane"][data-idx="${idx}"] [data-testid="result-meta"]`).waitFor();
}

/** The app's services, Chromium and a page of the renderer bridged to them: what an e2e file opens first. */
export interface OpenedApp {
  app: UiApp;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * Passes the page's bridge traffic through unchanged, telling `onAnswer` of each answer to a
 * call: the call's method, the answer's size in bytes, as the page received it, and the call's
 * request. An `onAnswer` that returns a promise holds that answer, and every message after it,
 * in their order, until the promise settles; one that returns `{ alone }` holds that answer
 * only, until `alone` settles, and lets the later ones pass it (answers main sends out of order).
 */
export function tapAnswers(
  context: BrowserContext,
  app: UiApp,
  onAnswer: (method: string, bytes: number, req: unknown) => void | Promise<void> | { alone: Promise<void> },
): Promise<void> {
  const calls = new Map<number, { method: string; req: unknown }>();
  return context.routeWebSocket(app.bridge.wsUrl, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      const call = typeof m === 'string' ? (JSON.parse(m) as { id?: number; method?: string; req?: unknown }) : {};
      if (call.id !== undefined && call.method) calls.set(call.id, { method: call.method, req: call.req });
      server.send(m);
    });
    let held: Promise<void> | undefined;
    server.onMessage((m) => {
      const answer = typeof m === 'string' ? (JSON.parse(m) as { t?: string; id?: number }) : {};
      const call = answer.t === 'res' && answer.id !== undefined ? calls.get(answer.id) : undefined;
      const hold = answer.t === 'res' && answer.id !== undefined ? onAnswer(call?.method ?? '', Buffer.byteLength(m), call?.req) : undefined;
      if (hold && 'alone' in hold) return void hold.alone.then(() => ws.send(m));
      if (!hold && !held) return ws.send(m);
      const before = held ?? Promise.resolve();
      held = before.then(() => hold).then(() => ws.send(m));
    });
  });
}

/**
 * `prepare` runs on the page's browser context before the page opens, with the app whose
 * bridge the page will talk to (to route the bridge's socket, say).
 */
export type OpenAppOptions = Parameters<typeof startUiApp>[0] & { prepare?: (context: BrowserContext, app: UiApp) => Promise<void> };

export async function openApp(o: OpenAppOptions = {}): Promise<OpenedApp> {
  ensureBuilt();
  const { prepare, ...appOptions } = o;
  const app = await startUiApp(appOptions);
  const browser = await launchChromium();
  const page = await openBridgedPage(browser, app.bridge.url, app.bridge.wsUrl, 'light', prepare && ((context) => prepare(context, app)));
  return {
    app,
    browser,
    page,
    async close() {
      await browser.close();
      await app.close();
    },
  };
}
