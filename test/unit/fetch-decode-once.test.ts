import { beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Charset from '../../src/main/fetch/charset';
import type * as Html from '../../src/main/fetch/html';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';

// Counted, not replaced: the real decoder and the real Readability pass run.
const counts = vi.hoisted(() => ({ decode: 0, article: 0 }));
vi.mock('../../src/main/fetch/charset', async (importOriginal) => {
  const real = await importOriginal<typeof Charset>();
  return { ...real, decodeText: (...a: Parameters<typeof real.decodeText>) => (counts.decode++, real.decodeText(...a)) };
});
vi.mock('../../src/main/fetch/html', async (importOriginal) => {
  const real = await importOriginal<typeof Html>();
  return { ...real, extractArticle: (...a: Parameters<typeof real.extractArticle>) => (counts.article++, real.extractArticle(...a)) };
});

const { createFetcher } = await import('../../src/main/fetch');
type Fetcher = ReturnType<typeof createFetcher>;

/**
 * The pipeline decodes an HTML answer once (the page judge, the render decision and the
 * extraction share it) and runs Readability once even on a thin page with scripts (the render
 * decision's article is the one extracted). Each pass is a measurable share of a batch's
 * time per page (issue 15).
 */
const ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Long read</title></head><body>
<article><h1>Long read</h1>${'<p>A paragraph of the article, long enough to be read as content by Readability and not as chrome.</p>'.repeat(12)}</article></body></html>`;
const THIN = `<!doctype html><html><head><meta charset="utf-8"><title>Thin</title><script src="/app.js"></script></head><body>
<article><h1>Thin</h1><p>Only a line of text here, and a script bundle beside it.</p></article></body></html>`;

const open = closedAfterAll();
let base = '';
let fetcher: Fetcher;

beforeAll(async () => {
  base = await listenLoopback(open, (req, res) => {
    const page = req.url === '/article' ? ARTICLE : req.url === '/thin' ? THIN : undefined;
    if (!page) return res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  // No browser here: a thin page with scripts is extracted as it came, render_skipped says why.
  fetcher = createFetcher(
    { allowHosts: ['127.0.0.1'] },
    { renderer: () => ({ browser: async () => ({ ok: false, why: 'no browser in this test', hint: 'none' }), render: async () => Promise.reject(new Error('unused')), close: async () => {} }) },
  );
  open.push(fetcher);
});

async function fetchCounted(path: string, options: Record<string, string> = {}) {
  // The soft-404 probe's page (once per host) is decoded too: ask for it first, then count.
  await fetcher.fetchTarget(new AbortController().signal, { name: 'warm' }, { url: `${base}/article`, options: { mode: 'raw' } });
  counts.decode = 0;
  counts.article = 0;
  const r = await fetcher.fetchTarget(new AbortController().signal, { name: 'warm' }, { url: `${base}${path}`, options });
  return { r, decode: counts.decode, article: counts.article };
}

describe('one decode and one Readability pass per page', () => {
  it('an article in markdown mode: decoded once, Readability once', async () => {
    const { r, decode, article } = await fetchCounted('/article');
    expect(r.content).toContain('# Long read');
    expect(r.meta).toMatchObject({ rendered: false, charset: 'utf-8', title: 'Long read' });
    expect(decode).toBe(1);
    expect(article).toBe(1);
  });

  it('a thin page with scripts: the render decision and the extraction share one Readability pass', async () => {
    const { r, decode, article } = await fetchCounted('/thin', { mode: 'text' });
    expect(r.content).toContain('Only a line of text here');
    expect(r.meta).toMatchObject({ rendered: false, title: 'Thin' });
    expect(String(r.meta?.render_skipped)).toContain('no browser in this test');
    expect(decode).toBe(1);
    expect(article).toBe(1);
  });

  it('raw mode decodes once and never runs Readability', async () => {
    const { r, decode, article } = await fetchCounted('/article', { mode: 'raw' });
    expect(r.content).toBe(ARTICLE);
    expect(decode).toBe(1);
    expect(article).toBe(0);
  });

  it('render=never: decoded once', async () => {
    const { r, decode, article } = await fetchCounted('/thin', { render: 'never' });
    expect(r.content).toContain('Only a line of text here');
    expect(decode).toBe(1);
    expect(article).toBe(1);
  });
});
