import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSift } from '../helpers/cli';
import { shapeOf } from '../../src/shared/shown';
import { startServer, type TestServer } from '../helpers/fetch-server';

// Through the built CLI (node scripts/build-cli.mjs), as a user runs it, over real PDFs
// (test/fixtures/pdfs/README.md): a LaTeX package's manual and a two-column paper.
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-pdf-markdown-'));
const env = { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir };
const sift = (...args: string[]) => runSift(args, { env, cwd: dir });
const fixture = (name: string) => path.resolve('test/fixtures/pdfs', name);
const words = (s: string): string[] => s.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
let srv: TestServer;

beforeAll(async () => {
  const paper = readFileSync(fixture('tracemonkey.pdf'));
  srv = await startServer({ '/paper.pdf': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(paper) });
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Out {
  ok: boolean;
  content: string;
  meta: { page_lines: [number, number][]; pdf: Record<string, unknown> };
}

describe('a PDF in mode markdown', () => {
  // It was the text mode's bytes: no heading, no list item.
  it('has headings by type size, a byline that is none, and bulleted lines as list items; the words are the text’s', async () => {
    const md = await sift('extract', fixture('hebrew-cjhebrew.pdf'), '--mode', 'markdown');
    const text = await sift('extract', fixture('hebrew-cjhebrew.pdf'), '--mode', 'text');
    expect(md.code).toBe(0);
    expect(text.code).toBe(0);
    // The title (15.5 pt over a 10 pt body), then the author and the date (12 pt, as the subsections): no headings.
    expect(md.stdout).toMatch(/^# cjhebrew∗\n\nChristian Justen\nmail@christian-justen\.de\n\nMarch 6th, 2017 – Version 0\.2a\n\n## 1 Overview\n\ncjhebrew is a package/);
    expect(md.stdout).toContain('\n### 3.1 The consonants\n');
    expect(md.stdout).toContain('\n## 5 What is new in this version?\n\n### v0.2a\n\n- Fixed a stupid typo which created a warning.\n\n### v 0.2\n\n- cjhebrew can now be used');
    expect(md.stdout.match(/^#+ /gm)).toHaveLength(14);
    // Text mode is as it was: no marks, the bullets as printed.
    expect(text.stdout).not.toMatch(/^#/m);
    expect(text.stdout).toContain('\n• cjhebrew can now be used');
    expect(words(md.stdout)).toEqual(words(text.stdout));
  }, 120_000);

  it('is the default of sift fetch: a title over two lines is one heading, the authors in the sections’ type are none, page_lines still find the pages', async () => {
    const md = await sift('fetch', `${srv.origin}/paper.pdf`, '--allow-private', '--pages', '1-2', '--json');
    const text = await sift('fetch', `${srv.origin}/paper.pdf`, '--allow-private', '--pages', '1-2', '--mode', 'text', '--json');
    const m = JSON.parse(md.stdout) as Out;
    const t = JSON.parse(text.stdout) as Out;
    expect(m.ok).toBe(true);
    expect(m.content).toMatch(/^# Trace-based Just-in-Time Type Specialization for Dynamic Languages\n\nAndreas Gal∗\+, Brendan Eich∗/);
    expect(m.content).not.toMatch(/^#+ (?:Andreas|Mohammad|Jesse)/m);
    for (const h of ['## Abstract', '## 1. Introduction', '## 2. Overview: Example Tracing Run']) expect(m.content).toContain(`\n${h}\n\n`);
    expect(m.content).toContain('\n\n- We explain an algorithm for dynamically forming trace trees to\ncover a program');
    expect(m.content.match(/^#+ /gm)).toHaveLength(4);
    expect(words(m.content)).toEqual(words(t.content));
    // Page 2 starts on the line page_lines says, in either mode.
    const first = (o: Out) => o.content.split('\n')[(o.meta.page_lines[1]?.[1] ?? 0) - 1]?.replace(/^#+ /, '');
    expect(first(m)).toBe(first(t));
    expect(first(t)).toBeTruthy();
    // Its meta counts the marks, which tells the app to render it and the export to write it as
    // Markdown: shown as laid out text, a reader saw "## Abstract" written out. Text mode stays text.
    expect(m.meta).toMatchObject({ pdf: { headings: 4, list_items: 3 } });
    expect(t.meta).not.toHaveProperty('pdf.headings');
    expect(shapeOf(undefined, m)).toBe('markdown');
    expect(shapeOf('text', t)).toBe('text');
    // A result stored in mode markdown before a PDF had marks is text mode's bytes, and reads as text.
    const { headings: _h, list_items: _l, ...before } = m.meta.pdf;
    expect(shapeOf(undefined, { content: t.content, meta: { ...m.meta, pdf: before } })).toBe('text');
  }, 120_000);
});
