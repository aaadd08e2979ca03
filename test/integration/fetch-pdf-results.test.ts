/**
 * What a user is told about a PDF fetched through the real fetcher from a loopback server:
 * the pages chosen that it does not have, what its layout was read as, what it is when the
 * server labels something else a PDF, and its title when page 1 is not among those chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, type Fetcher } from '../../src/main/fetch';
import type { Result, Target } from '../../src/shared/types';
import { pagesMissingText } from '../../src/shared/pages';
import { fail, fixedResolver, startServer, type TestServer } from '../helpers/fetch-server';
import { makePdf, numberedPdf, TWO_COLUMNS, twoColumnPaper, type Placed } from '../helpers/fetch-pdf';

let srv: TestServer;
let f: Fetcher;
const caller = { name: 'test' };
const get = (path: string, options: Target['options'] = {}): Promise<Result> =>
  f.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}${path}`, options });

beforeAll(async () => {
  srv = await startServer({
    '/fourteen.pdf': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(numberedPdf(14, 'Fourteen Pages')),
  });
  f = createFetcher({ allowPrivate: true }, { lookup: fixedResolver({}) });
});

afterAll(async () => {
  await f.close();
  await srv.close();
});

describe('pages chosen past the end of a PDF', () => {
  it('names the pages the document does not have, beside the pages that came back', async () => {
    const r = await get('/fourteen.pdf', { pages: '2,40' });
    expect(r.content).toContain('item2');
    expect(r.meta).toMatchObject({ pages_total: 14, pages_returned: 1, pages_missing: '40', warnings: ['pages_missing'] });
    expect(pagesMissingText(r.meta ?? {})).toBe('the PDF has 14 pages: page 40 is past its end');
  });

  it('names the part of a range past the end, and an open range starting past it', async () => {
    const r = await get('/fourteen.pdf', { pages: '12-20,30-' });
    expect(r.meta).toMatchObject({ pages_returned: 3, pages_missing: '15-20,30-' });
    expect(pagesMissingText(r.meta ?? {})).toBe('the PDF has 14 pages: pages 15-20 and 30 on are past its end');
  });

  it('says nothing of an open range or of pages the document has', async () => {
    for (const pages of ['10-', '1-14', '3,5']) {
      const r = await get('/fourteen.pdf', { pages });
      expect(r.meta?.pages_missing, pages).toBeUndefined();
      expect(r.meta?.warnings, pages).toBeUndefined();
    }
  });

  it('still fails when none of the chosen pages is in the document', async () => {
    const e = await fail(get('/fourteen.pdf', { pages: '40-50' }));
    expect(e.msg).toBe('no such pages: the document has 14 pages');
  });
});

describe("what a PDF's layout is said to be", () => {
  it('counts the columns of text on a page, not a table of narrow columns under them', async () => {
    srv.route('/two-columns.pdf', (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(twoColumnPaper()));
    const r = await get('/two-columns.pdf', { mode: 'text' });
    expect(r.content.startsWith(`${TWO_COLUMNS.left.join('\n')}\n\n${TWO_COLUMNS.right.join('\n')}`)).toBe(true);
    expect(r.meta?.pdf).toMatchObject({ columns: 2, multi_column_pages: 1, narrow_column_pages: 1 });
  });
});

describe('a body labelled a PDF that is not one', () => {
  const ERROR = '{"error":{"code":"AccessDenied","message":"Request has expired"},\n "requestId":"4F2A"}';

  it('fails JSON sent as application/pdf (an expired link\'s answer), saying what it says, not an ok JSON result', async () => {
    srv.route('/expired.pdf', (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(ERROR));
    const e = await fail(get('/expired.pdf'));
    expect(e.status).toBe(422);
    expect(e.reason).toBe('unsupported'); // 'unreadable file', as a damaged PDF's
    expect(e.msg).toBe('not a PDF: it is labelled a PDF and holds JSON: {"error":{"code":"AccessDenied","message":"Request has expired"}, "requestId":"4F2A"}');
    expect(e.hint).toMatch(/expired or signed link/);
  });

  it('reads it as the JSON it is when asked with jq', async () => {
    srv.route('/api.pdf', (_q, r) => r.writeHead(200, { 'content-type': 'application/x-pdf' }).end(ERROR));
    expect((await get('/api.pdf', { jq: '.error.message' })).content).toBe('"Request has expired"');
  });

  it('still reads a real PDF sent as application/octet-stream, and one behind a redirect', async () => {
    srv.route('/download', (_q, r) => r.writeHead(200, { 'content-type': 'application/octet-stream' }).end(numberedPdf(3, 'Three Pages')));
    srv.route('/go', (_q, r) => r.writeHead(302, { location: '/download' }).end());
    const r = await get('/go', { pages: '2' });
    expect(r.content).toContain('item2');
    expect(r.meta).toMatchObject({ final_url: `${srv.origin}/download`, content_type: 'application/pdf', kind: 'pdf', pages_total: 3, pages_returned: 1, title: 'Three Pages' });
  });
});

describe("a PDF's title", () => {
  // A paper whose info has no title: its title is page 1's heading, in type twice the body's.
  const paper = (): Buffer => {
    const body = (page: number): Placed[] => Array.from({ length: 6 }, (_, i) => ({ x: 72, y: 600 - i * 14, text: `Body line ${i + 1} of page ${page} on tidal gauges and harbour charts.` }));
    return makePdf({ pages: [], placed: [[{ x: 72, y: 700, text: 'Tidal Gauges of the North Sea', size: 20 }, ...body(1)], body(2), body(3)] });
  };

  it('is page 1\'s heading when only later pages are chosen, as when the whole document is read', async () => {
    srv.route('/paper.pdf', (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(paper()));
    const whole = await get('/paper.pdf');
    expect(whole.meta).toMatchObject({ title: 'Tidal Gauges of the North Sea', title_from: 'page_1_heading' });
    const later = await get('/paper.pdf', { pages: '2-3' });
    expect(later.content).not.toContain('Tidal Gauges');
    expect(later.meta).toMatchObject({ pages_returned: 2, title: 'Tidal Gauges of the North Sea', title_from: 'page_1_heading' });
    const asked = await get('/paper.pdf', { pages: '3', question: 'which page has harbour charts?' });
    expect(asked.meta).toMatchObject({ title: 'Tidal Gauges of the North Sea', passage_pages: [3] });
  });
});

describe('pages chosen over the page limit', () => {
  it('names how many pages were chosen, not only the document\'s count, and a choice that fits', async () => {
    const small = createFetcher({ allowPrivate: true, maxPdfPages: 5 }, { lookup: fixedResolver({}) });
    try {
      const e = await fail(small.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/fourteen.pdf`, options: { pages: '3-10' } }));
      expect(e.reason).toBe('too_long');
      // It said "document too long: 14 pages", with "Choose at most 5 pages at a time."
      expect(e.msg).toBe('document too long: 8 pages chosen of its 14');
      expect(e.hint).toBe('Sift reads at most 5 pages at once; choose fewer at a time, e.g. 3-7 in “PDF pages”, or pages=3-7 on the URL’s line of the list.');
      const whole = await fail(small.fetchTarget(new AbortController().signal, caller, { url: `${srv.origin}/fourteen.pdf` }));
      expect(whole.msg).toBe('document too long: 14 pages');
    } finally {
      await small.close();
    }
  });
});
