/**
 * What `--grep` finds in the text a user fetched, as grep -i and grep -E users expect: through
 * the CLI's own path (sift fetch in this process: fetcher, compute worker, store) against a
 * loopback site.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loopbackSift, type LoopbackSift, type siftInProcess } from '../helpers/cli-main';
import { makePdf } from '../helpers/fetch-pdf';
import { startSite, type Site } from '../helpers/sites';

const text = (body: string) => (_q: unknown, res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body);

// A German street sign set in capitals with the capital sharp s, a line of an 18th-century
// book set with the long s, a temperature with the Kelvin sign.
const FOLDS = ['STRAẞE DES 17. JUNI', 'Hiſtory of the ſtate', 'Boils at 373 \u212A', 'plain ASCII line'].join('\n');
// Turkish writes the capital of i with a dot (İ) and the small of I without (ı).
const LOG = ['2026-12-01 ERROR disk 3 full', 'retrying in 30 s', 'ERROR: upload of 12 files failed', 'x = a-b'].join('\n');
// Chinese sets no space between words, and a PDF's line (or a text wrapped at 80 columns) ends
// anywhere, inside a word too: 整体 ("whole") over two lines.
const WRAPPED_ZH = ['这个灵活性制定了网络部件的整', '体方案，服务器和客户端机器。', '第二行没有这个词。'];
const ZH_PDF = makePdf({ cjk: true, pages: [['前言'], WRAPPED_ZH] });
// Letters, digits and signs as Japanese and Chinese input write them (full-width), and the ideographic space.
const WIDE = ['このＧＰＵは１０倍速い（ベータ版）', 'The GPU is 10 times faster', 'ｇｐｕ\u3000ｒｅｐｏｒｔ', 'CPU only'].join('\n');
// Chinese and Japanese sentences set their own commas, colons and brackets full-width; signs among
// Latin letters and digits (a shortcut, a price) are full-width Latin; and one line of ASCII.
const CJK_PUNCT = ['服务器，客户端（可选）：配置', 'Ctrl＋Alt＋Kで呼び出す', '価格は１，０００円（税込）', 'a, b: (c)'].join('\n');
// A recipe sets its fractions as one character (½, and 1½ for one and a half), or with the fraction slash U+2044.
const RECIPE = ['Add ½ cup of sugar', 'then 1½ cups of flour', 'and ⅓ of the milk', 'Step 1 of 2', '1\u20444 tsp salt'].join('\n');
/**
 * Every vulgar fraction NFKC writes with the fraction slash (¼ ½ ¾, ⅐ to ⅟, ↉), found by
 * reading every code point: a page sets each as one character on one line, another as people
 * type it (½ as 1/2) on one line.
 */
const VULGAR = Array.from({ length: 0x110000 }, (_, c) => (c >= 0xd800 && c < 0xe000 ? '' : String.fromCodePoint(c))).filter((f) => f !== '\u2044' && f.normalize('NFKC').includes('\u2044'));
const typedFraction = (f: string): string => f.normalize('NFKC').replace('\u2044', '/');
const FRACTION_SET = VULGAR.map((f, i) => `row ${i}: ${f} cup`).join('\n');
const FRACTION_TYPED = [...VULGAR.map((f, i) => `row ${i}: ${typedFraction(f)} cup`), 'then 1 1/2 cups of flour', 'and 3/4 tsp salt'].join('\n');
const TURKISH = ["İstanbul'da yağmur", 'ISTANBUL HAVALİMANI', 'ıstanbul (yazım hatası)', 'istanbul', 'İzmir'].join('\n');

let site: Site;
let tmp: LoopbackSift;
let sift: ReturnType<typeof siftInProcess>;
let db: string;

beforeAll(async () => {
  site = await startSite({ '/folds.txt': text(FOLDS), '/turkish.txt': text(TURKISH), '/app.log': text(LOG), '/wide.txt': text(WIDE),
    '/cjk-punct.txt': text(CJK_PUNCT), '/recipe.txt': text(RECIPE), '/fractions-set.txt': text(FRACTION_SET), '/fractions-typed.txt': text(FRACTION_TYPED),
    '/wrapped-zh.txt': text(WRAPPED_ZH.join('\n')),
    '/manual-zh.pdf': (_q, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(ZH_PDF),
  });
  tmp = loopbackSift('sift-grep-matching-');
  ({ sift, db } = tmp);
}, 120_000);
afterAll(async () => {
  await site.close();
  tmp.remove();
});

/** The lines `sift fetch ROUTE --grep G` printed, and what it said on stderr. */
async function grep(route: string, g: string): Promise<{ lines: string[]; err: string; code: number }> {
  const r = await sift('fetch', `${site.base}${route}`, '--grep', g, '--db', db);
  return { lines: r.out === '' ? [] : r.out.replace(/\n$/, '').split('\n'), err: r.err, code: r.code };
}

describe('letters, digits and signs in full-width forms', () => {
  test('match as they are typed, case as the pattern says, and the line prints as the page writes it', async () => {
    expect((await grep('/wide.txt', 'GPU')).lines).toEqual(['このＧＰＵは１０倍速い（ベータ版）', 'The GPU is 10 times faster']);
    expect((await grep('/wide.txt', '(?i)gpu report')).lines).toEqual(['ｇｐｕ\u3000ｒｅｐｏｒｔ']);
    expect((await grep('/wide.txt', '10倍')).lines).toEqual(['このＧＰＵは１０倍速い（ベータ版）']);
    // Typed full-width, they match as written, and case still counts without (?i).
    expect((await grep('/wide.txt', 'ＧＰＵ')).lines).toEqual(['このＧＰＵは１０倍速い（ベータ版）']);
    expect((await grep('/wide.txt', 'gpu')).lines).toEqual(['ｇｐｕ\u3000ｒｅｐｏｒｔ']);
  });

  test("a sign among Latin letters or digits matches its ASCII; a Chinese or Japanese sentence's own punctuation does not", async () => {
    // Before, `,` found every Chinese sentence with a ，: on the Debian manual's pdftotext, 409 of its
    // 1,424 Chinese lines where 4 hold an ASCII comma.
    expect((await grep('/cjk-punct.txt', ',')).lines).toEqual(['価格は１，０００円（税込）', 'a, b: (c)']);
    expect((await grep('/cjk-punct.txt', ':')).lines).toEqual(['a, b: (c)']);
    expect((await grep('/cjk-punct.txt', '\\(')).lines).toEqual(['a, b: (c)']);
    expect((await grep('/wide.txt', '\\(ベータ版\\)')).lines).toEqual([]);
    expect((await grep('/cjk-punct.txt', 'Ctrl\\+Alt\\+K')).lines).toEqual(['Ctrl＋Alt＋Kで呼び出す']);
    expect((await grep('/cjk-punct.txt', '1,000円')).lines).toEqual(['価格は１，０００円（税込）']);
    // Typed as the sentence sets it, it matches as written.
    expect((await grep('/wide.txt', '（ベータ版）')).lines).toEqual(['このＧＰＵは１０倍速い（ベータ版）']);
    expect((await grep('/cjk-punct.txt', '，')).lines).toEqual(['服务器，客户端（可选）：配置', '価格は１，０００円（税込）']);
  });
});

describe('fractions set as one character (½ ⅓) or with the fraction slash', () => {
  test('match as people type them: 1/2, and 1 1/2 for a mixed 1½', async () => {
    // Before, none of these found a line: grep read ½ and ⅓ as characters of their own, and ⁄ as no /.
    expect((await grep('/recipe.txt', '1/2 cup')).lines).toEqual(['Add ½ cup of sugar', 'then 1½ cups of flour']);
    expect((await grep('/recipe.txt', '1 1/2 cups')).lines).toEqual(['then 1½ cups of flour']);
    expect((await grep('/recipe.txt', '1/3 of')).lines).toEqual(['and ⅓ of the milk']);
    expect((await grep('/recipe.txt', '1/4 tsp')).lines).toEqual(['1\u20444 tsp salt']);
    expect((await grep('/recipe.txt', '½')).lines).toEqual(['Add ½ cup of sugar', 'then 1½ cups of flour']);
  });

  test('every vulgar fraction typed as one character finds the page that types it with a slash, and the other way round', async () => {
    expect(VULGAR.length).toBe(20);
    // The lines that, with their fractions typed, hold f typed (⅟ is 1/, the start of every 1/n).
    const rows = (lines: string, f: string): string[] => lines.split('\n').filter((l) => [...l].map(typedFraction).join('').includes(typedFraction(f)));
    for (const f of VULGAR) {
      // Before, ½ typed found no line of a page that wrote 1/2, where 1/2 typed found ½.
      expect((await grep('/fractions-typed.txt', f)).lines, f).toEqual(rows(FRACTION_TYPED, f));
      expect((await grep('/fractions-typed.txt', `: ${f} cup`)).lines, f).toEqual([`row ${VULGAR.indexOf(f)}: ${typedFraction(f)} cup`]);
      expect((await grep('/fractions-set.txt', typedFraction(f))).lines, f).toEqual(rows(FRACTION_SET, f));
    }
    // A number with its fraction (1½) and the fraction slash typed (3⁄4) find them written with a slash.
    expect((await grep('/fractions-typed.txt', '1½ cups')).lines).toEqual(['then 1 1/2 cups of flour']);
    expect((await grep('/fractions-typed.txt', '3\u20444 tsp')).lines).toEqual(['and 3/4 tsp salt']);
    // In a class a fraction is the character itself: [½¼] is one of two characters, which no page's 1/2 is.
    expect((await grep('/fractions-set.txt', '[½¼] cup')).lines).toEqual(['row 0: ¼ cup', 'row 1: ½ cup']);
  });
});

describe('(?i) ignores case in every script, on every line', () => {
  test("letters whose capital or small form is another script's or is no ASCII (ẞ, ſ, the Kelvin sign) match as the u flag folds them", async () => {
    // Before, each matched nothing: the pattern ran without the u flag, whose case folding stops at ASCII.
    expect((await grep('/folds.txt', '(?i)straße')).lines).toEqual(['STRAẞE DES 17. JUNI']);
    expect((await grep('/folds.txt', '(?i)history of the state')).lines).toEqual(['Hiſtory of the ſtate']);
    expect((await grep('/folds.txt', '(?i)373 k$')).lines).toEqual(['Boils at 373 \u212A']);
    // What matched before still does, and case still counts without (?i).
    expect((await grep('/folds.txt', '(?i)PLAIN')).lines).toEqual(['plain ASCII line']);
    expect((await grep('/folds.txt', 'straße')).lines).toEqual([]);
  });

  test('the dotted capital İ and the dotless ı are an i, as Python reads them: Istanbul is found however Turkish or English set it', async () => {
    const every = ["İstanbul'da yağmur", 'ISTANBUL HAVALİMANI', 'ıstanbul (yazım hatası)', 'istanbul'];
    // Before: (?i)istanbul missed "İstanbul'da", and (?i)İstanbul found that line alone.
    expect((await grep('/turkish.txt', '(?i)istanbul')).lines).toEqual(every);
    expect((await grep('/turkish.txt', '(?i)İSTANBUL')).lines).toEqual(every);
    expect((await grep('/turkish.txt', '(?i)havalimanı')).lines).toEqual(['ISTANBUL HAVALİMANI']);
    // Case counts without (?i): İ is İ.
    expect((await grep('/turkish.txt', 'İ')).lines).toEqual(["İstanbul'da yağmur", 'ISTANBUL HAVALİMANI', 'İzmir']);
  });
});

describe("what grep -E, PCRE or Python write and JavaScript's expressions read as other characters", () => {
  /** A usage error (exit 2) before anything is fetched, saying what to write instead. */
  async function refused(g: string): Promise<string> {
    const r = await grep('/app.log', g);
    expect(r.code, r.err).toBe(2);
    expect(r.lines).toEqual([]);
    return r.err;
  }

  test('a POSIX class such as [[:digit:]] is refused with the class JavaScript writes for it', async () => {
    // Before: [[:digit:]]+ was one of "[:digt" then "]"s, an ok that matched nothing.
    expect(await refused('[[:digit:]]+ files')).toContain('grep "[[:digit:]]+ files" is not a valid regular expression: [:digit:] is a POSIX class, which JavaScript does not know (it reads the letters one by one): write \\d in its place');
    expect(await refused('^[[:upper:]]+:')).toContain('[:upper:] is a POSIX class, which JavaScript does not know (it reads the letters one by one): write \\p{Lu} in its place');
    expect(await refused('[^[:space:]]')).toContain('write \\s in its place');
  });

  test("an escape JavaScript does not have is refused, not read as its letter: \\A, \\Z, \\h, \\K, \\Q…\\E, and a count {,3}", async () => {
    // Before, each was an ok with no match: \A was the letter A, {,3} the characters "{,3}".
    expect(await refused('\\AERROR')).toContain('\\A is an escape of PCRE and Python, not of JavaScript, which reads it as the letter A: write ^ for the start of the line');
    expect(await refused('failed\\Z')).toContain('write $ for the end of the line');
    expect(await refused('ERROR\\h+disk')).toContain('write [ \\t] for a space or tab');
    expect(await refused('ERROR: \\Kupload')).toContain('\\K is an escape of PCRE, not of JavaScript, which reads it as the letter K: Sift keeps whole lines, so leave it out');
    expect(await refused('\\Qa-b\\E')).toContain('put a \\ before each of . * + ? ^ $ | ( ) [ ] { } in place of \\Q…\\E');
    expect(await refused('\\y')).toContain('\\y is no escape JavaScript knows, and it reads it as the letter y: leave the \\ out to match y');
    expect(await refused('ERROR.{,3}disk')).toContain('a count {,3} needs its lowest number in JavaScript, which reads it as the characters "{,3}": write {0,3}');
  });

  test('escapes JavaScript has, and \\- that it takes without the u flag, still match', async () => {
    expect((await grep('/app.log', '\\d{2} files')).lines).toEqual(['ERROR: upload of 12 files failed']);
    expect((await grep('/app.log', 'a\\-b')).lines).toEqual(['x = a-b']);
    expect((await grep('/app.log', '\\bERROR\\b\\s\\w+ \\d')).lines).toEqual(['2026-12-01 ERROR disk 3 full']);
    expect((await grep('/app.log', '\\\\A|\\[:digit:\\]|in \\x33\\u0030')).lines).toEqual(['retrying in 30 s']);
  });
});

describe('Chinese or Japanese words that a line end breaks in two', () => {
  test('are found across the break, in a PDF and in wrapped text, with both lines kept and the page cited', async () => {
    // Before: no match, as each line holds half of 整体.
    const pdf = await grep('/manual-zh.pdf', '整体方案');
    expect(pdf.lines).toEqual(WRAPPED_ZH.slice(0, 2));
    expect(pdf.err).toMatch(/on page 2\n$/);
    expect((await grep('/wrapped-zh.txt', '网络部件的整体')).lines).toEqual(WRAPPED_ZH.slice(0, 2));
    // A word on one line is found as before, and a line break between Latin words is no join.
    expect((await grep('/wrapped-zh.txt', '第二行')).lines).toEqual([WRAPPED_ZH[2]]);
    expect((await grep('/app.log', 'full retrying')).lines).toEqual([]);
  });

  test('a match across the break is one match, though both its lines are kept', async () => {
    // Before: meta.matches said 2 for the one 整体方案, and sift fetch "2 matches, on page 2".
    const pdf = await grep('/manual-zh.pdf', '整体方案');
    expect(pdf.lines).toEqual(WRAPPED_ZH.slice(0, 2));
    expect(pdf.err).toContain('1 match, on page 2');
    const json = await sift('fetch', `${site.base}/wrapped-zh.txt`, '--grep', '整体|第二行', '--json', '--db', db);
    const meta = (JSON.parse(json.out) as { meta: { matches: number } }).meta;
    // The word over the break and the line that holds 第二行: two matches on three lines.
    expect(meta.matches).toBe(2);
    // A match on a line of its own, beside one across its break, still counts apart.
    const both = await sift('fetch', `${site.base}/wrapped-zh.txt`, '--grep', '网络|的整体', '--json', '--db', db);
    expect((JSON.parse(both.out) as { content: string; meta: { matches: number } }).meta.matches).toBe(1);
  });
});
