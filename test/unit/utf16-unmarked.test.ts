/**
 * UTF-16 without a byte-order mark in any script, as Notepad's "Unicode" and PowerShell's `>`
 * write it, and binary that no reading of it may take for text. Russian, Greek, Arabic,
 * Chinese and Japanese were refused as binary: the rule looked for Latin-1's NULs only.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, deflateRawSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/main/fetch/charset';
import { classify } from '../../src/main/fetch/sniff';
import { decodeListBytes } from '../../src/shared/urllist';
import { zipOf } from '../helpers/zip';

const FIXTURES = path.join(__dirname, '../fixtures');
const prose = (JSON.parse(readFileSync(path.join(FIXTURES, 'charset/utf16-prose.json'), 'utf8')) as { texts: { lang: string; text: string }[] }).texts;
const legacy = (JSON.parse(readFileSync(path.join(FIXTURES, 'charset/prose.json'), 'utf8')) as { pages: { lang: string; title: string; paragraphs: string[] }[] }).pages;
const texts: [string, string][] = [
  ...prose.map((p): [string, string] => [p.lang, p.text]),
  ...legacy.filter((p) => ['ko', 'cs', 'fr'].includes(p.lang)).map((p): [string, string] => [p.lang, `${p.title}\n${p.paragraphs.join('\n')}\n`]),
];
const le = (s: string): Buffer => Buffer.from(s, 'utf16le');
const be = (s: string): Buffer => le(s).swap16();

describe('UTF-16 without a byte-order mark', () => {
  it.each(texts)('%s, little- and big-endian, is read as its text under text/plain, labelled UTF-8 or not', (_lang, text) => {
    for (const [bytes, charset] of [[le(text), 'utf-16le'], [be(text), 'utf-16be']] as const) {
      expect(classify('text/plain', bytes)).toBe('text');
      expect(classify('', bytes)).toBe('text');
      expect(decodeText(bytes, 'text/plain', true)).toMatchObject({ text, charset });
      expect(decodeText(bytes, 'text/plain; charset=utf-8', true)).toMatchObject({ text, charset, overruled: 'utf-8' });
      // A short note, the first line alone, is text too.
      const line = `${text.split('\n')[0] ?? ''}\n`;
      expect(decodeText(charset === 'utf-16le' ? le(line) : be(line), 'text/plain', true).text).toBe(line);
    }
  });

  it('a list of URLs with titles in those scripts is read as the fetcher reads a body', () => {
    const list = `title,url\n${texts.map(([lang, text], i) => `"${(text.split('\n')[0] ?? '').replaceAll('"', '')}",https://${lang}.example/${i}`).join('\n')}\n`;
    expect(decodeListBytes(le(list))).toEqual({ ok: true, text: list });
    expect(decodeListBytes(be(list))).toEqual({ ok: true, text: list });
  });
});

describe('binary read as UTF-16', () => {
  it('real binary files and compressed text are no UTF-16 text, and 8-bit text with stray controls stays 8-bit', async () => {
    const readme = readFileSync(path.join(__dirname, '../../README.md'));
    const dir = mkdtempSync(path.join(tmpdir(), 'sift-utf16-'));
    const db = new Database(path.join(dir, 'a.db'));
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('one'), ('two');");
    db.close();
    const binary: Record<string, Buffer> = {
      pdf: readFileSync(path.join(FIXTURES, 'pdfs/tracemonkey.pdf')),
      png: readFileSync(path.join(FIXTURES, 'binary/gvim-16.png')),
      wasm: readFileSync(path.join(FIXTURES, 'binary/qcms-head.wasm')),
      ttf: readFileSync(path.join(FIXTURES, 'binary/dejavu-serif-head.ttf')),
      sqlite: readFileSync(path.join(dir, 'a.db')),
      zip: await zipOf({ 'notes.txt': readme.toString('utf8') }),
      gzip: gzipSync(readme),
      deflate: deflateRawSync(readme),
      brotli: brotliCompressSync(readme),
      program: readFileSync(process.execPath).subarray(0, 4096),
    };
    rmSync(dir, { recursive: true, force: true });
    for (let i = 0; i < 200; i++) binary[`random ${i}`] = randomBytes(256 + i * 4);
    for (const [name, bytes] of Object.entries(binary)) expect(decodeText(bytes, 'text/plain', true).charset, name).not.toMatch(/^utf-16/);
    // English with backspaces ahead of it reads as CJK two bytes at a time; Russian in UTF-8 as Hangul.
    for (const s of ['\b\b\b\b<!DOCTYPE html><html><body><p>A page with junk ahead of it.</p></body></html>', `\x07\x07\x07\x07${prose[0]?.text ?? ''}`]) {
      expect(decodeText(Buffer.from(s, 'utf8'), 'text/html', true).charset).toBe('utf-8');
    }
  });
});
