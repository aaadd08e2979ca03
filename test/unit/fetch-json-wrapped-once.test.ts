import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFetcher } from '../../src/main/fetch';
import { closedAfterAll, listenLoopback } from '../helpers/loopback';

/**
 * JSON behind an XSSI guard or in a JSONP call is parsed once per fetch, as plain JSON is: it
 * was parsed to tell its kind, again to take it out of its wrapper and a third time to read
 * it (a 14 MB JSONP answer held the main thread for two of them).
 */
const INNER = JSON.stringify({ title: 'Prices', items: Array.from({ length: 2000 }, (_, i) => ({ name: `item ${i}`, price: i })) });
const BODIES: Record<string, [string, string]> = {
  '/guarded.json': [`)]}'\n${INNER}`, 'application/json'],
  '/prices.js': [`cb(${INNER});`, 'application/javascript'],
};

const open = closedAfterAll();
let base = '';
const fetcher = createFetcher({ allowHosts: ['127.0.0.1'] });

beforeAll(async () => {
  base = await listenLoopback(open, (req, res) => {
    const [body, type] = BODIES[req.url ?? ''] ?? ['no such document', 'text/plain'];
    res.writeHead(body === 'no such document' ? 404 : 200, { 'content-type': type }).end(body);
  });
  open.push(fetcher);
});
afterEach(() => vi.restoreAllMocks());

/** The result of a fetch, and how many times this thread parsed the whole document (counted, not replaced: the real JSON.parse runs). */
async function fetchCounted(path: string, options: Record<string, string>) {
  const parse = JSON.parse;
  let parses = 0;
  vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    const value: unknown = parse(text, reviver);
    if (typeof text === 'string' && text.length >= INNER.length) parses++;
    return value;
  });
  const r = await fetcher.fetchTarget(new AbortController().signal, { name: 'once' }, { url: `${base}${path}`, options });
  return { r, parses };
}

describe('JSON taken out of a wrapper', () => {
  it('behind an XSSI guard, with jq: parsed once', async () => {
    const { r, parses } = await fetchCounted('/guarded.json', { jq: '.title' });
    expect(r).toMatchObject({ content: '"Prices"', meta: { json_wrapper: 'xssi', title: 'Prices' } });
    expect(parses).toBe(1);
  });

  it('behind an XSSI guard, laid out without jq: parsed once', async () => {
    const { r, parses } = await fetchCounted('/guarded.json', {});
    expect(r.content.startsWith('{\n  "title": "Prices",')).toBe(true);
    expect(r.meta).toMatchObject({ json_wrapper: 'xssi', kind: 'json' });
    expect(parses).toBe(1);
  });

  it('a JSONP call sent as JavaScript, with jq: parsed once', async () => {
    const { r, parses } = await fetchCounted('/prices.js', { jq: '.items[1].name', mode: 'text' });
    expect(r).toMatchObject({ content: 'item 1', meta: { json_wrapper: 'jsonp', kind: 'json' } });
    expect(parses).toBe(1);
  });
});
