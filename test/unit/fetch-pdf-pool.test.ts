import { afterEach, describe, expect, it } from 'vitest';
import { PdfPool } from '../../src/main/fetch';
import { numberedPdf } from '../helpers/fetch-pdf';
import { workerScript } from '../../src/main/fetch/worker-slot';

const never = () => new AbortController().signal;
let pool: PdfPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** Distinct documents of equal size: 150 pages keeps a worker busy long enough to overlap. */
const doc = (tag: string) => numberedPdf(150, tag);

describe('the PDF pool', () => {
  it('extracts one document once for concurrent requests (single flight)', async () => {
    pool = new PdfPool(2);
    const pdf = doc('same');
    const results = await Promise.all(['a', 'b', 'c', 'a/batch'].map((c) => pool!.extract(c, pdf, null, 500, never())));
    expect(pool.stats().started).toBe(1);
    for (const r of results) {
      expect(r.pagesTotal).toBe(150);
      expect(r.pages[149]?.text).toContain('item150');
    }
  });

  it('runs a caller’s documents one at a time, whatever the number of workers', async () => {
    pool = new PdfPool(2);
    const rs = await Promise.all(['x', 'y', 'z'].map((t) => pool!.extract('alice', doc(t), null, 500, never())));
    expect(rs.map((r) => r.pages.length)).toEqual([150, 150, 150]);
    expect(pool.stats().started).toBe(3);
    expect(pool.stats().peak.alice).toBe(1);
  });

  it('lets a caller’s interactive work run beside its batch work', async () => {
    pool = new PdfPool(2);
    const run = (caller: string, tag: string) => pool!.extract(caller, doc(tag), null, 500, never());
    const all = Promise.all([run('desktop/batch', 'b1'), run('desktop/batch', 'b2'), run('desktop', 'i1')]);
    // The interactive document started next to the first batch one, not after both (read
    // when they were submitted, not from which finished first: that is the machine's load).
    expect(pool.stats()).toMatchObject({ started: 2, running: { 'desktop/batch': 1, desktop: 1 } });
    await all;
    expect(pool.stats().peak).toEqual({ 'desktop/batch': 1, desktop: 1 });
  });

  it('keeps a shared extraction going when one of its waiters gives up', async () => {
    pool = new PdfPool(1);
    const pdf = doc('shared');
    const quitter = new AbortController();
    const a = pool.extract('a', pdf, null, 500, quitter.signal);
    const b = pool.extract('b', pdf, null, 500, never());
    quitter.abort(new Error('user cancelled'));
    await expect(a).rejects.toThrow('user cancelled');
    expect((await b).pages).toHaveLength(150);
    expect(pool.stats().started).toBe(1);
  });

  it('hands a shared extraction to the batch when the interactive caller gives up, so its next PDF starts at once', async () => {
    pool = new PdfPool(2);
    const shared = numberedPdf(400, 'shared-slot');
    const interactive = new AbortController();
    const first = pool.extract('desktop', shared, null, 500, interactive.signal);
    const batch = pool.extract('desktop/batch', shared, null, 500, never());
    expect(pool.stats().running).toEqual({ desktop: 1 });
    interactive.abort(new Error('deadline'));
    await expect(first).rejects.toThrow('deadline');
    // The run goes on for the batch alone, in the batch's slot.
    expect(pool.stats().running).toEqual({ 'desktop/batch': 1 });
    const next = pool.extract('desktop', doc('next'), null, 500, never());
    expect(pool.stats()).toMatchObject({ started: 2, running: { desktop: 1, 'desktop/batch': 1 } });
    expect((await next).pages).toHaveLength(150);
    expect((await batch).pages).toHaveLength(400);
    expect(pool.stats().running).toEqual({});
  });

  it('stops an extraction nobody waits for, and the next one still works', async () => {
    pool = new PdfPool(1);
    const ac = new AbortController();
    const p = pool.extract('a', numberedPdf(400, 'long'), null, 500, ac.signal);
    // Started at once (a free worker): abort while it runs, with no timer to race the worker.
    expect(pool.stats().running).toEqual({ a: 1 });
    ac.abort(new Error('deadline'));
    await expect(p).rejects.toThrow('deadline');
    expect(pool.stats().running).toEqual({});
    expect((await pool.extract('a', numberedPdf(2), null, 500, never())).pages).toHaveLength(2);
  });

  it('tells each waiter how far the reading is page by page, in order, and once more when every page is read', async () => {
    pool = new PdfPool(2);
    const pdf = doc('counted');
    const heard: Record<string, number[]> = { a: [], b: [] };
    const totals = new Set<number>();
    const listen = (who: string) => (done: number, total: number) => (heard[who]!.push(done), totals.add(total));
    const [ra] = await Promise.all(['a', 'b'].map((c) => pool!.extract(c, pdf, null, 500, never(), false, listen(c))));
    expect(ra?.pages).toHaveLength(150);
    expect([...totals]).toEqual([150]);
    // The first 4 pages as the document opens, then each page as a worker reads it (two
    // workers read chunks side by side, so a page of either moves the count by one), then all.
    const everyPage = Array.from({ length: 150 - 3 }, (_, i) => i + 4);
    expect(heard).toEqual({ a: everyPage, b: everyPage });
  });

  it('says nothing of the pages of a document its waiter gave up on', async () => {
    pool = new PdfPool(1);
    const ac = new AbortController();
    const heard: number[] = [];
    const p = pool.extract('a', numberedPdf(400, 'dropped'), null, 500, ac.signal, false, (done) => {
      heard.push(done);
      ac.abort(new Error('user cancelled'));
    });
    await expect(p).rejects.toThrow('user cancelled');
    // The next document runs in the same worker, after the first one's reading stopped.
    expect((await pool.extract('a', numberedPdf(2), null, 500, never())).pages).toHaveLength(2);
    expect(heard).toEqual([4]);
  });

  it('reports a document over the limit as too long with its page count, without extracting it', async () => {
    pool = new PdfPool(1);
    const r = await pool.extract('a', numberedPdf(12), null, 10, never());
    expect(r).toMatchObject({ pagesTotal: 12, tooLong: true, pages: [] });
  });
});

describe('worker scripts in a packaged app', () => {
  it('load from app.asar.unpacked, since a worker thread cannot load a module from inside app.asar', () => {
    expect(workerScript('pdf-worker.mjs', '/opt/Sift/resources/app.asar/out/main')).toBe('/opt/Sift/resources/app.asar.unpacked/out/main/pdf-worker.mjs');
    expect(workerScript('pdf-worker.mjs', '/work/main/src/main/fetch')).toBe('/work/main/src/main/fetch/pdf-worker.mjs');
  });
});
