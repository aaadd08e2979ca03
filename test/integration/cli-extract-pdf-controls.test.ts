import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runSift } from '../helpers/cli';

// Through the built CLI (node scripts/build-cli.mjs), as a user runs it.
const dir = mkdtempSync(path.join(tmpdir(), 'sift-cli-pdf-controls-'));
const env = { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir };
const sift = (...args: string[]) => runSift(args, { env, cwd: dir });
const fixture = (name: string) => path.resolve('test/fixtures/pdfs', name);
// Control characters (C0 but the tab and the line feed, DEL, C1): none is a letter a reader sees.
const CONTROL = /[^\P{Cc}\t\n]/u;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sift extract of a PDF whose font gives control codes for glyphs', () => {
  it('leaves out the NULs a font without a letter for a glyph gives, so grep reads the text as text', async () => {
    const r = await sift('extract', fixture('greek-greektonoi.pdf'), '--pages', '8,12');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(Cyrillic uppercase letter monograph Uk)');
    expect(r.stdout).toContain("(most fonts haven't it)");
    expect(r.stdout).not.toMatch(CONTROL);
  }, 120_000);

  it('leaves out the C1 codes a Hebrew font gives for its points, keeping the verse’s letters', async () => {
    const r = await sift('extract', fixture('hebrew-cjhebrew.pdf'), '--pages', '3', '--json');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { ok: boolean; content: string };
    expect(result.ok).toBe(true);
    expect(result.content).toContain('תֹהוּ');
    expect(result.content).not.toMatch(CONTROL);
  }, 120_000);
});
