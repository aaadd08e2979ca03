/**
 * A failed row's error beside its reason chip, read at 800 × 768 and a laptop's 1024 × 700 with
 * the result pane open and at 1440 × 900, in real Chromium over the real services: at 1024 the column
 * left "t…" after the chip and its header wrapped. What is measured is what a user can read
 * (how many characters of the error show, whether the header is one line), not pixels.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/chromium';
import { axOf } from '../helpers/a11y';
import { cutInCells, dropFile, pageErrors } from '../helpers/ui-app';
import { appForFile } from '../helpers/ui-file';

const FIX = path.resolve(__dirname, '../fixtures/outcomes');
// Fewer characters than this is not an error a user can read ("t…", "the si…"): a fifth of a
// short sentence such as "the site answered with an anti-bot check" (41).
const READABLE_CHARS = 12;

let page: Page;
let server: http.Server;
let base = '';

beforeAll(async () => {
  const challenge = readFileSync(path.join(FIX, 'batch/cf_uam_just_a_moment_2021.html'), 'utf8');
  const login = readFileSync(path.join(FIX, 'batch/login_bank_of_ireland_365.html'), 'utf8');
  server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    if (p === '/news/challenge-page') return res.writeHead(503, { 'content-type': 'text/html; charset=utf-8' }).end(challenge);
    if (p === '/account/overview') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(login);
    if (p === '/broken') return res.writeHead(500, { 'content-type': 'text/plain' }).end('oops');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

appForFile({
  app: { settings: { allowPrivate: false, allowHosts: ['127.0.0.1'] } },
  ready: (o) => {
    page = o.page;
  },
});

interface ErrorCell {
  idx: string | null;
  text: string;
  /** Characters of the error in view: its length times the share of its width the cell shows. */
  visible: number;
  /** Whether the error is laid out at all (a hidden one is carried by the cell's title and name). */
  shown: boolean;
  /** Whether the chip's and the error's lines sit inside their row (not clipped by its fixed height). */
  inRow: boolean;
  /** Px between the row's top and the chip's (or the error's) top, and between the last line's foot and the row's bottom border. */
  above: number;
  below: number;
}

function errorCells(p: Page): Promise<ErrorCell[]> {
  return p.getByTestId('row-error').evaluateAll((els) =>
    els.map((e) => {
      const t = e.querySelector<HTMLElement>('.row-error-text');
      const row = e.closest('[role="row"]')!.getBoundingClientRect();
      const inside = (el: Element | null): boolean => !el || (el.getBoundingClientRect().top >= row.top - 1 && el.getBoundingClientRect().bottom <= row.bottom + 1);
      const text = t?.textContent ?? '';
      const box = t?.getBoundingClientRect();
      const shown = !!t && !!box && box.width > 0 && getComputedStyle(t).display !== 'none' && getComputedStyle(t).visibility !== 'hidden';
      const visible = shown ? Math.floor((text.length * Math.min(t.clientWidth, t.scrollWidth)) / Math.max(1, t.scrollWidth)) : 0;
      const chip = e.querySelector('.reason-chip')?.getBoundingClientRect();
      const lines = [chip, shown ? box : undefined].filter((r): r is DOMRect => !!r);
      const rowEl = e.closest<HTMLElement>('[role="row"]')!;
      const inner = row.bottom - parseFloat(getComputedStyle(rowEl).borderBottomWidth);
      const above = Math.min(...lines.map((r) => r.top)) - row.top;
      const below = inner - Math.max(...lines.map((r) => r.bottom));
      return { idx: rowEl.getAttribute('data-idx'), text, visible, shown, inRow: inside(t) && inside(e.querySelector('.reason-chip')), above, below };
    }),
  );
}

/** How many lines the column header "Title or error" takes. */
const headerLines = (p: Page): Promise<number> =>
  p.locator('.target-head .c-detail').evaluate((h) => {
    const range = document.createRange();
    range.selectNodeContents(h);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });

test('a failed row beside the result pane shows its reason whole and a readable error, or none, centred in its row, at 800 × 768, 1024 × 700 and 1440 × 900', async () => {
  const urls = [`${base}/news/challenge-page`, `${base}/account/overview`, `${base}/missing/page`, `${base}/broken`, 'http://localhost:1/admin'];
  await dropFile(page, 'failures.txt', urls.join('\n'));
  await expect.poll(() => page.getByTestId('count-valid').textContent()).toBe('5');
  await page.getByTestId('submit').click();
  await expect.poll(() => page.getByTestId('job-header').getAttribute('data-status'), { timeout: 60_000 }).toBe('failed');
  // The result pane open, as a user who clicked a row has it.
  await page.locator('[data-testid="target-row"][data-idx="0"]').click();
  await expect.poll(() => page.getByTestId('result-pane').getAttribute('data-idx')).toBe('0');

  for (const [width, height] of [
    [800, 768],
    [1024, 700],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect.poll(() => page.locator('.target-head .c-detail').evaluate((h) => Math.round(h.getBoundingClientRect().width))).toBeGreaterThan(0);
    const cells = await errorCells(page);
    await page.screenshot({ path: screenshotPath(`ui-narrow-errors-${width}`) });
    expect(cells.length).toBe(5);
    for (const c of cells) {
      // A shown error reads at least READABLE_CHARS characters (or all of a shorter one), on a line the row does not clip.
      if (c.shown) {
        expect({ ...c, readable: c.visible >= Math.min(READABLE_CHARS, c.text.length) }).toMatchObject({ readable: true, inRow: true });
      }
      // Centred in its row, off its edges: chip over error, the chip sat 1.4 px under the row's
      // top and the error as near its bottom border at 800 and 1024 px.
      expect(c.above, `${c.idx} at ${width}`).toBeGreaterThanOrEqual(2.5);
      expect(Math.abs(c.above - c.below), `${c.idx} at ${width}`).toBeLessThanOrEqual(1);
    }
    // The reason is whole beside it, and the header reads on one line.
    expect(await cutInCells(page, 'row-reason')).toEqual([]);
    expect(await headerLines(page)).toBe(1);
    // A screen reader reads the error in the row's cell, shown or not.
    for (const c of cells) {
      const ax = await axOf(page, `[data-testid="target-row"][data-idx="${c.idx}"] .c-detail`);
      expect(`${ax.name} ${ax.description}`).toContain(c.text.split(' — ')[0]!.slice(0, 30));
    }
  }
  expect(pageErrors(page)).toEqual([]);
});
