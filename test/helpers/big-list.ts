/**
 * A big list file, as a long export is: real lists from shared/corpora/url-lists repeated,
 * each copy's hosts given a path of its own so the URLs stay distinct. The file is made in the
 * page (a File of repeated parts): 50 MB would take a minute to cross CDP as JSON.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** shared/corpora/url-lists as corpora.ts finds the article corpus; undefined where it is not there. */
export function urlListsDir(): string | undefined {
  const rel = path.join('shared', 'corpora', 'url-lists');
  if (process.env.SIFT_CORPORA) return path.join(process.env.SIFT_CORPORA, 'url-lists');
  for (let dir = path.resolve(__dirname); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, rel))) return path.join(dir, rel);
  }
  return undefined;
}

export interface ListSeed {
  name: string;
  type: string;
  head: string;
  /** Repeated: each copy's `https://host` becomes `https://host/copy-N`. */
  body: string;
  tail: string;
}

/** The plain-text lists' URL lines and the Pocket export's rows, one URL a line. */
export function textSeed(dir: string): ListSeed {
  const lines: string[] = [];
  for (const f of readdirSync(path.join(dir, 'text')).filter((n) => n.endsWith('.txt'))) {
    for (const l of readFileSync(path.join(dir, 'text', f), 'utf8').split('\n')) if (/^https?:\/\//.test(l.trim())) lines.push(l.trim());
  }
  for (const row of readFileSync(path.join(dir, 'csv', 'pocket-export-part_000000.csv'), 'utf8').split('\n')) {
    const url = /,(https?:\/\/[^,\s"]+),/.exec(row)?.[1];
    if (url) lines.push(url);
  }
  return { name: 'links.txt', type: 'text/plain', head: '', body: `${lines.join('\n')}\n`, tail: '' };
}

/** Firefox's and Chromium's nested exports' entries (favicons inlined, as they are) under one header. */
export function bookmarksSeed(dir: string): ListSeed {
  const read = (f: string): string => readFileSync(path.join(dir, 'bookmarks-netscape', f), 'utf8');
  const entries = (html: string): string => html.slice(html.indexOf('<DL><p>') + '<DL><p>'.length, html.lastIndexOf('</DL>'));
  const firefox = read('firefox_nested.htm');
  return {
    name: 'bookmarks.html',
    type: 'text/html',
    head: firefox.slice(0, firefox.indexOf('<DL><p>') + '<DL><p>'.length),
    body: entries(firefox) + entries(read('chromium_nested.htm')),
    tail: '</DL>\n',
  };
}

/**
 * Builds the file in the page, of at least `bytes`, kept as window.__bigList; returns its size.
 * The strings it was made of are collected before it returns: their GC (hundreds of ms on the
 * window's thread) is the test's, not the drop's.
 */
/** A copy's hosts, each given `/copy-N` (as source: it is used in the page too). */
const HOST = String.raw`(https?:\/\/[^/"\s]+)`;

export async function makeBigList(page: Page, seed: ListSeed, bytes: number): Promise<number> {
  const size = await page.evaluate(
    ({ seed: s, bytes: want, host }) => {
      const parts: string[] = [s.head];
      let size = s.head.length;
      for (let n = 1; size < want; n++) {
        const copy = s.body.replace(new RegExp(host, 'g'), `$1/copy-${n}`);
        parts.push(copy);
        size += copy.length;
      }
      parts.push(s.tail);
      const file = new File(parts, s.name, { type: s.type });
      (window as unknown as { __bigList: File }).__bigList = file;
      return file.size;
    },
    { seed, bytes, host: HOST },
  );
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.detach();
  return size;
}

/** Drops window.__bigList on the drop zone, as dropFile does a small one. */
export async function dropBigList(page: Page): Promise<void> {
  await page.getByTestId('drop-zone').evaluate((el) => {
    const dt = new DataTransfer();
    dt.items.add((window as unknown as { __bigList: File }).__bigList);
    for (const kind of ['dragenter', 'dragover', 'drop']) el.dispatchEvent(new DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: dt }));
  });
}

/** The same file as makeBigList's, written to disk (a list the user opens with Open list…); returns its size. */
export function writeBigList(file: string, seed: ListSeed, bytes: number): number {
  const parts: string[] = [seed.head];
  let size = seed.head.length;
  for (let n = 1; size < bytes; n++) {
    const copy = seed.body.replace(new RegExp(HOST, 'g'), `$1/copy-${n}`);
    parts.push(copy);
    size += copy.length;
  }
  parts.push(seed.tail);
  const text = parts.join('');
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}
