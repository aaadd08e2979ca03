/**
 * A page's Markdown as its words read (search's snippets and index, grep's read form, the
 * question option's passages): without the marks and the inline HTML the writer puts in where
 * Markdown's delimiters cannot express the page's styles.
 */
import { describe, expect, it } from 'vitest';
import { markdownOf } from '../../src/main/fetch/html';
import { markdownAsRead } from '../../src/main/search/text';

/** Every phrasing element of HTML, so the tags the writer emits are found by writing them, not listed by hand. */
const PHRASING = 'a abbr b bdi bdo big br cite code data del dfn em font i ins kbd mark q s samp small span strike strong sub sup time tt u var wbr'.split(' ');
const element = (t: string, text: string): string => (t === 'br' || t === 'wbr' ? `<${t}>` : `<${t}${t === 'a' ? ' href="/x"' : ''}>${text}</${t}>`);
/**
 * Where the writer keeps an element as HTML: alone, after code, around emphasis, inside crowded
 * emphasis, in a table's cell. Not emphasis inside code, which the writer keeps as the code's
 * text ("`*a*b`"), nor a line break inside emphasis, which no line for line reading can join.
 */
const arrangements = (t: string): string[] => [
  `<p>The ${element(t, 'north')} quay</p>`,
  `<p>An un${element(t, 'north')}able quay</p>`,
  `<p>Run <code>ls</code>${element(t, 'north')} quay</p>`,
  ...(t === 'code' || t === 'br' || t === 'wbr' ? [] : [`<p><${t}><em>a</em>north<em>c</em></${t}>quay</p>`, `<p>x<em>b<${t}>north</${t}>c</em><b>d</b>quay</p>`]),
  `<table><tr><th>h</th><th>k</th></tr><tr><td>a${element(t, 'north')}<br>quay</td><td>c</td></tr></table>`,
];
const TAG = /<\/?([a-z]+)>/;
const TAGS = new RegExp(TAG.source, 'g');

describe('markdownAsRead', () => {
  const written = PHRASING.flatMap(arrangements).map((html) => markdownOf(html));
  const tags = new Set(written.flatMap((md) => [...md.matchAll(TAGS)].map((m) => m[1]!)));

  it('finds the writer keeping some elements as HTML (em, strong and code among them)', () => {
    expect([...tags]).toEqual(expect.arrayContaining(['em', 'strong', 'code', 'sup', 'sub', 'kbd', 'mark', 'ins', 'br']));
  });

  it('reads every such page without a tag or a mark', () => {
    const unread = PHRASING.flatMap(arrangements)
      .map((html) => ({ html, read: markdownAsRead(markdownOf(html)) }))
      .filter(({ read }) => TAG.test(read) || /[*_`]/.test(read));
    expect(unread).toEqual([]);
  });

  it.each([
    ['italics inside a word', 'un*break*able rule', 'unbreakable rule'],
    ['italics of several words', 'a *salt marsh* heron', 'a salt marsh heron'],
    ['bold of italics', 'a ***heron*** flew', 'a heron flew'],
    ['emphasis kept as HTML around bold', 'a <em>**salt**marsh**heron**</em> flew', 'a saltmarshheron flew'],
    ['a highlight, an insertion and a key', 'The <mark>harbour</mark> <ins>pilot</ins>: press <kbd>Ctrl</kbd>', 'The harbour pilot: press Ctrl'],
    ['an exponent and an index', '10<sup>6</sup> H<sub>2</sub>O', '10^6 H2O'],
    ['code after code, its entities and escapes as the page showed them', 'Run `a`<code>\\*p\\_q\\* &lt;b&gt; &amp;</code> now', 'Run a*p_q* <b> & now'],
    ["a cell's line break, a line's words apart", '| a<br>b |', '| a b |'],
    ['escaped asterisks and tags, which are the page\'s own text', '2 \\* 3 \\*x\\* \\<em>', '2 * 3 *x* <em>'],
    ['code, whose asterisks are its own, beside italics', '`a*b*c` and x*y*z', 'a*b*c and xyz'],
    ['a fenced block of code, as it is', '```\nx*y*z <em>\n```', '```\nx*y*z <em>\n```'],
    ['a thematic break and a list', '* * *\n\n- a *b*', '* * *\n\n- a b'],
  ])('reads %s as its words', (_what, md, read) => {
    expect(markdownAsRead(md)).toBe(read);
  });

  it('keeps every line where it was', () => {
    const md = 'a <em>**b**c**d**</em>e\n\n| x<br>y |\n*f\ng*';
    expect(markdownAsRead(md).split('\n')).toHaveLength(md.split('\n').length);
  });
});
