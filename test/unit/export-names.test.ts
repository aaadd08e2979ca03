import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fileNameKey, safeFileName } from '../../src/main/export/index';
import { childPath } from '../../src/main/export/names';

/** Why `name` would fail on Windows, macOS or Linux, or null when it is fine on all three. */
function portableProblem(name: string): string | null {
  if (name === '' || name === '.' || name === '..') return 'empty or dot name';
  // eslint-disable-next-line no-control-regex -- control bytes are what is checked
  if (/[<>:"/\\|?*\u0000-\u001f\u007f]/.test(name)) return 'character refused by Windows or a path separator';
  if (/[. ]$/.test(name)) return 'trailing dot or space (Windows drops it)';
  if (name.startsWith('.')) return 'leading dot (hidden on macOS/Linux)';
  if (name.startsWith('-')) return 'leading dash (an option to a command given the folder\'s files)';
  const base = (name.split('.')[0] ?? '').trimEnd();
  if (/^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i.test(base)) return 'Windows reserved device name';
  if (name.length > 120) return `longer than 120 characters (${name.length})`;
  if (Buffer.byteLength(name) > 255) return 'longer than 255 bytes (Linux)';
  if (name.normalize('NFD').length > 255) return 'longer than 255 UTF-16 units in NFD (macOS)';
  if (Buffer.from(name, 'utf8').toString('utf8') !== name) return 'not valid UTF-16 (lone surrogate)';
  if (/[\u202a-\u202e\u2066-\u2069]/.test(name)) return 'bidi control (spoofs the extension)';
  return null;
}

const HOSTILE = [
  '../../etc/passwd',
  '..',
  '.',
  '/',
  'C:\\Windows\\system32',
  'CON',
  'con',
  'aux.txt',
  'AUX',
  'NUL .txt',
  'nul',
  'COM1',
  'lpt9.md',
  'COM¹',
  // Cut to fit, it loses its one long grapheme (an e with 200 accents) and is a device name again.
  `NUL e${'\u0301'.repeat(200)}`,
  `com1.${'a\u0301'.repeat(200)}`,
  'a\u0000b',
  '\u0001\u0002\u001f\u007f',
  'x'.repeat(300),
  '😀'.repeat(300),
  '한'.repeat(300),
  '👩‍👩‍👧‍👦 family',
  'Report',
  'report',
  'REPORT',
  'Report',
  'Straße',
  'STRASSE',
  'trailing dots...',
  'trailing spaces   ',
  '   ',
  '',
  'a<b>c:d"e/f\\g|h?i*j',
  '\u202etxt.exe',
  '-rf',
  '--help',
  '- Home',
  '\ud800 lone surrogate',
  'https://www.example.org/a/b/c.pdf?x=1&y=2#frag',
  'https://example.org/',
  'https://example.org/%2e%2e/%2e%2e/etc/passwd',
  'manifest.jsonl',
  'failed',
];

describe('safeFileName', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-names-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('turns hostile titles and URLs into names valid on Windows, macOS and Linux, unique case-insensitively, that stay inside the folder', () => {
    const taken = new Set<string>([fileNameKey('manifest.jsonl'), fileNameKey('failed.txt')]);
    const names = HOSTILE.map((t) => safeFileName(t, taken, 'md'));
    for (const [i, n] of names.entries()) {
      expect(portableProblem(n), `${JSON.stringify(HOSTILE[i])} → ${JSON.stringify(n)}`).toBeNull();
      expect(n.endsWith('.md')).toBe(true);
      expect(path.dirname(path.resolve(dir, n))).toBe(path.resolve(dir));
    }
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    // Real files: every name is created as is and reads back as the same single entry.
    for (const n of names) writeFileSync(childPath(dir, n), n, { flag: 'wx' });
    expect(readdirSync(dir).sort()).toEqual([...names].sort());
  });

  it('starts no name with a dash, which a command given the files would read as its option', () => {
    const taken = new Set<string>();
    expect(['-v', '--- Minutes ---', '- Home', '-'].map((t) => safeFileName(t, taken, 'md'))).toEqual(['v.md', 'Minutes ---.md', 'Home.md', 'untitled.md']);
  });

  it('prefixes Windows device names whatever their case or extension', () => {
    const taken = new Set<string>();
    expect(safeFileName('CON', taken, 'md')).toBe('_CON.md');
    expect(safeFileName('aux.txt', taken, 'txt')).toBe('_aux.txt.txt');
    expect(safeFileName('NUL .txt', taken, 'md')).toBe('_NUL .txt.md');
  });

  it('numbers duplicates and names that differ only in case before the extension', () => {
    const taken = new Set<string>();
    expect(['Report', 'report', 'REPORT', 'Report'].map((t) => safeFileName(t, taken, '.md'))).toEqual([
      'Report.md',
      'report (2).md',
      'REPORT (3).md',
      'Report (4).md',
    ]);
  });

  it('cuts long titles to 120 characters with the extension, never inside an emoji', () => {
    const n = safeFileName('😀'.repeat(300), new Set(), 'md');
    expect(n.length).toBeLessThanOrEqual(120);
    expect(n).toMatch(/^(😀)+\.md$/u);
    const long = safeFileName('x'.repeat(300), new Set([fileNameKey(`${'x'.repeat(117)}.md`)]), 'md');
    expect(long).toBe(`${'x'.repeat(113)} (2).md`);
  });

  it("drops zero-width characters a visible title hides, keeping the joiners Persian, Indic scripts and emoji are written with", () => {
    const taken = new Set<string>();
    // A word cut by a zero-width space or word joiner looks whole, and a file manager shows it whole too.
    expect(safeFileName('zero\u200bwidth re\u2060port\u200b', taken, 'md')).toBe('zerowidth report.md');
    // Joiners between Latin letters change nothing a reader sees.
    expect(safeFileName('pay\u200dpal in\u200cvoice', taken, 'md')).toBe('paypal invoice.md');
    // Between letters of a script that joins, they are spelling: "می‌خواهم" (I want), a family emoji.
    expect(safeFileName('می\u200cخواهم', taken, 'md')).toBe('می\u200cخواهم.md');
    expect(safeFileName('👨\u200d👩\u200d👧 trip', taken, 'md')).toBe('👨\u200d👩\u200d👧 trip.md');
    expect(safeFileName('क्\u200dष', taken, 'md')).toBe('क्\u200dष.md');
  });

  it('drops a soft hyphen and a Mongolian vowel separator a file manager shows nothing of, keeping the separator inside Mongolian words', () => {
    const taken = new Set<string>();
    // "in\u00advoice" shows as "invoice" (a hyphen only where a line breaks), and is another name.
    expect(safeFileName('in\u00advoice re\u00adport', taken, 'md')).toBe('invoice report.md');
    // U+180E beside Latin letters is invisible; between Mongolian letters it shapes the next vowel ("ᠬᠠᠳᠠ\u180eᠠ").
    expect(safeFileName('pay\u180epal', taken, 'md')).toBe('paypal.md');
    expect(safeFileName('\u1828\u1820\u180e\u1820', taken, 'md')).toBe('\u1828\u1820\u180e\u1820.md');
  });

  it('drops a grapheme joiner and Hangul fillers that show nothing, and reads a braille blank as a space, keeping what spells', () => {
    const taken = new Set<string>();
    // Between Latin letters U+034F shows nothing: "in\u034fvoice" reads "invoice" and is another name.
    expect(safeFileName('in\u034fvoice', taken, 'md')).toBe('invoice.md');
    // Between two combining marks it keeps their order (Hebrew pointing), which NFC would swap.
    expect(safeFileName('\u05d1\u05b8\u034f\u05b7', taken, 'md')).toBe('\u05d1\u05b8\u034f\u05b7.md');
    // The fillers a name made of "nothing" is spelled with: the whole title is blank, so it is untitled.
    expect(safeFileName('\u3164\uffa0\u115f\u1160', taken, 'md')).toBe('untitled.md');
    expect(safeFileName('re\u3164port an\uffa0nual', taken, 'md')).toBe('report annual.md');
    // Old Hangul spells a syllable with no initial consonant as choseong filler + vowel, and one with no vowel as consonant + jungseong filler.
    expect(safeFileName('\u115f\u1161', taken, 'md')).toBe('\u115f\u1161.md');
    expect(safeFileName('\u1100\u1160', taken, 'md')).toBe('\u1100\u1160.md');
    expect(safeFileName('a\u115fb\u1160c', taken, 'md')).toBe('abc.md');
    // The braille blank is a space as wide as a letter: "\u2800" alone named "\u2800.md", a file that looks nameless.
    expect(safeFileName('\u2800\u2800', taken, 'md')).toBe('untitled (2).md');
    expect(safeFileName('annual\u2800report\u2800', taken, 'md')).toBe('annual report.md');
  });

  it('names a URL by its host and path', () => {
    expect(safeFileName('https://www.example.org/a/b/c.pdf?x=1', new Set(), 'txt')).toBe('example.org a b c.pdf x=1.txt');
  });

  it("names a URL in its own letters: an IDN host as the app shows it, a path's escapes read though one byte is not UTF-8", () => {
    expect(safeFileName('https://xn--r8jz45g.jp/%E8%B3%87%E6%96%99/%E5%A0%B1%E5%91%8A.pdf', new Set(), 'txt')).toBe('例え.jp 資料 報告.pdf.txt');
    expect(safeFileName('https://xn--e1afmkfd.xn--p1ai/%D0%BE%D1%82%D1%87%D1%91%D1%82.pdf', new Set(), 'txt')).toBe('пример.рф отчёт.pdf.txt');
    // A Latin-1 page's path: its %E9 stays, the spaces around it are read.
    expect(safeFileName('https://example.org/rapport%20annuel%20%E9t%E9.pdf', new Set(), 'txt')).toBe('example.org rapport annuel %E9t%E9.pdf.txt');
    // A look-alike host stays as Punycode, as in the app's address column.
    expect(safeFileName('https://xn--80ak6aa92e.com/', new Set(), 'txt')).toBe('xn--80ak6aa92e.com.txt');
  });

  it('gives 10,000 identical titles distinct names quickly', () => {
    const taken = new Set<string>();
    const t0 = Date.now();
    for (let i = 0; i < 10_000; i++) safeFileName('Home', taken, 'md');
    expect(taken.size).toBe(10_000);
    // Probing from " (2)" every time would be 50 million lookups; the counter makes it 10,000.
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('keeps any string portable and unique (fuzzed)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), fc.constantFrom(...HOSTILE)), { maxLength: 40 }), fc.constantFrom('md', 'txt', 'json', 'html'), (titles, ext) => {
        const taken = new Set<string>();
        const names = titles.map((t) => safeFileName(t, taken, ext));
        for (const n of names) {
          expect(portableProblem(n)).toBeNull();
          expect(path.dirname(path.resolve(dir, n))).toBe(path.resolve(dir));
        }
        expect(new Set(names.map(fileNameKey)).size).toBe(names.length);
        expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('childPath', () => {
  it('refuses a name that would leave the folder', () => {
    expect(() => childPath('/tmp/x', '../y')).toThrow(/outside the export folder/);
    expect(() => childPath('/tmp/x', 'a/b')).toThrow(/outside the export folder/);
    expect(() => childPath('/tmp/x', '/etc/passwd')).toThrow(/outside the export folder/);
    expect(childPath('/tmp/x', 'a.md')).toBe(path.resolve('/tmp/x/a.md'));
  });
});
