/**
 * Inline elements side by side (emphasis beside emphasis, bold or a plain <span>; code beside
 * code) as Markdown that renders as the page showed them: CommonMark's flanking rules decide
 * whether a delimiter opens or closes by what touches it, and a run of backticks is one run
 * whoever wrote it. Read back with marked, the renderer the app shows results with.
 */
import fc from 'fast-check';
import { marked } from 'marked';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { markdownOf } from '../../src/main/fetch/html';
import { escapeHtml } from '../../src/shared/entities';

const ITALIC = new Set(['em', 'i']);
const BOLD = new Set(['strong', 'b']);

/**
 * Each character as shown, with the styles it is shown in: a letter's italic, bold and code; a
 * mark's code alone (a mark beside a word may leave its emphasis, which no delimiter can hold
 * there). Blanks and line breaks collapse as a browser collapses blanks, and carry no style.
 */
function shown(html: string): { chars: string; styles: string; codes: string[] } {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  let chars = '';
  let styles = '';
  const codes: string[] = [];
  const walk = (node: Node, italic: boolean, bold: boolean, code: boolean): void => {
    if (node.nodeType === 3) {
      for (const ch of node.textContent ?? '') {
        if (/\s/.test(ch)) {
          if (chars && !chars.endsWith(' ')) [chars, styles] = [`${chars} `, `${styles}.`];
          continue;
        }
        chars += ch;
        styles += /\p{L}/u.test(ch) ? `${italic ? 'i' : '-'}${bold ? 'b' : '-'}${code ? 'c' : '-'}` : code ? 'c' : '.';
      }
      return;
    }
    const name = (node as Element).localName;
    // A line break shows as a blank between words does (marked writes none after its <br>).
    if (name === 'br' && chars && !chars.endsWith(' ')) [chars, styles] = [`${chars} `, `${styles}.`];
    if (name === 'code') codes.push(node.textContent ?? '');
    for (const c of Array.from(node.childNodes)) walk(c, italic || ITALIC.has(name), bold || BOLD.has(name), code || name === 'code');
  };
  walk(document.body, false, false, false);
  return chars.endsWith(' ') ? { chars: chars.slice(0, -1), styles: styles.slice(0, -1), codes } : { chars, styles, codes };
}

const rendered = (md: string) => shown(marked.parse(md, { async: false, gfm: true }));

describe('emphasis beside another inline element', () => {
  it.each([
    ['emphasis then bold', '<p><em>word</em><strong>next</strong></p>'],
    ['emphasis then a plain span', '<p><em>a</em><span>b</span></p>'],
    ['a plain span on each side', '<p><span>a</span><em>b</em><span>c</span></p>'],
    ['emphasis beside emphasis', '<p><em>a</em><i>b</i></p>'],
    ['bold beside bold inside a word', '<p>x<b>a</b><strong>b</strong>y</p>'],
    ['emphasis inside a span, a word after the span', '<p><span><em>word</em></span>s</p>'],
    ['emphasis inside a span after a word', '<p>re<span><em>do</em></span></p>'],
    ['bold of a mark before emphasis before a word', '<p><b>.</b><em>a</em>b</p>'],
    ['bold of a mark after emphasis after a word', '<p>a<em>b</em><b>.</b></p>'],
    ['bold ending in a backtick before a word', '<p><b>a`</b>b</p>'],
    ['bold ending in a mark, inside emphasis, before a word', '<p><em><b>a,</b></em>b</p>'],
    ['emphasis at the end of a span, emphasis after the span', '<p><span>x<em>a</em></span><em>b</em>y</p>'],
    ['emphasis, then emphasis at the start of a span', '<p>x<em>a</em><span><em>b</em>y</span></p>'],
    ['bold at the end of a span in a span, bold after', '<p>x<span><span>y<b>a</b></span></span><strong>b</strong>y</p>'],
    ['emphasis opening and closing on bold, before a word', '<p><em><b>aa</b>aa<b>aa</b></em>aa</p>'],
    ['bold opening and closing on emphasis, before a word', '<p><b><em>a</em>a<em>a</em></b>a</p>'],
    ['emphasis ending in bold, then bold, inside a word', '<p>x<em>a<b>b</b></em><b>c</b>y</p>'],
    ['bold inside bold', '<p><b>a<b>b</b>c</b>d</p>'],
    ['emphasis inside emphasis, in a span', '<p><em><i>a</i>b<span><em>c</em></span></em>d</p>'],
    ['emphasis starting with empty emphasis of its kind (an icon\'s <i>)', '<p>x <em><i class="icon"></i>Note: spring tides</em> y</p>'],
    ['bold starting with empty bold', '<p><b><b></b>Warning:</b> check</p>'],
    ['bold starting with bold holding only a line break', '<p>x<strong><strong><br></strong>=</strong></p>'],
    ['emphasis holding bold, bold after it, inside a word', '<p>x<em>b<strong>a</strong>c</em><b>d</b>e</p>'],
    ['bold of marks between emphasis of either delimiter', '<p><em>a</em><b>..</b><em>a</em>a</p>'],
    ['emphasis ending in a parenthesis before a word', '<p><em>a(</em>b</p>'],
    ['emphasis starting with a parenthesis after a word', '<p>b<em>(a</em></p>'],
    ['bold ending in a blank and a parenthesis before a word', '<p><b>a (</b>b</p>'],
    ['emphasis ending in code before a word', '<p><em>a <code>b</code></em>c</p>'],
    ['emphasis starting with code after a word', '<p>c<em><code>b</code> a</em></p>'],
    ['bold ending in code before a word', '<p><strong>a <code>b</code></strong>c</p>'],
    ['bold ending in a link before a word', '<p><b>see <a href="http://127.0.0.1/">link</a></b>s</p>'],
    ['emphasis starting with a key after a word', '<p>x<i><kbd>K</kbd> a</i></p>'],
    ['bold holding emphasis that opens after a blank and closes inside a word', '<p><b>see <em>un</em>likely</b></p>'],
    ['emphasis after a word holding bold that closes before a blank', '<p>z<em>x <b>a</b> y</em></p>'],
    ['bold starting with code, then emphasis inside a word', '<p><strong><code>a.</code><em>a</em>a</strong></p>'],
    ['bold, then bold of marks, then emphasis before a word', '<p>x<strong>a(b</strong><strong>,_</strong><i>1 a</i>b</p>'],
    ['bold ending in code, then emphasis', '<p>b<b>a <code>b1</code></b><em>b c</em>1</p>'],
    ['bold starting with a minus after a word', '<p>word<strong>-5%</strong>x</p>'],
    ['emphasis starting with "=" after a word', '<p>a<em>=b</em>c</p>'],
    ['emphasis starting with "+ " after a word', '<p>a<em>+ b</em>c</p>'],
    ['emphasis starting with ">" after a word', '<p>a<em>&gt;b</em>c</p>'],
    ['bold starting with "# " after a word', '<p>a<b># b</b>c</p>'],
    ['bold starting with a minus at a line\'s start', '<p><b>-5</b> less</p>'],
    ['emphasis starting with a bracket after a word', '<p>see<em>]note</em>|</p>'],
    ['bold ending in a lone "*" and a blank', '<p><strong>Day ticket £12 * </strong>for adults</p>'],
    ['bold ending in "**" and a blank', '<p><b>a ** </b>b</p>'],
    ['emphasis ending in a lone "_" and a blank', '<p><em>a _ </em>b _c_</p>'],
    ['bold starting with a mark, a blank and a lone "*", after a word', '<p>x<b>, * b</b></p>'],
    ['bold, then a span starting with emphasis inside a word', '<p><b>Tip:</b><span><em>Neap</em>s are gentler</span></p>'],
    ['bold ending in a blank, then a span of bold and emphasis', '<p>x).<strong>** </strong><span><strong> _</strong><em>aword</em>1.</span></p>'],
    ['bold ending in a mark, an anchor\'s empty link, a word', '<p><b>Note:</b><a id="note-1"></a>Neaps</p>'],
    ['emphasis ending in a mark, a link with nothing in it, a word', '<p>a<em>b.</em><a href="http://127.0.0.1/x"><span></span></a>c</p>'],
    ['a word, an icon\'s empty span, emphasis starting with a mark', '<p>c<span class="icon"></span><em>.b</em></p>'],
    ['emphasis ending in a mark, a span starting with an empty span, a word', '<p>a<em>b.</em><span><span></span>c</span></p>'],
    ['emphasis, an empty span, emphasis', '<p><em>a</em><span></span><em>b</em></p>'],
  ])('renders as the page showed it: %s', (_what, html) => {
    expect(rendered(markdownOf(html))).toEqual(shown(html));
  });

  it.each([
    ['bold ending in a mark, an empty <code>, a word', '<p>a<strong>b.</strong><code></code>c</p>'],
    ['bold "2)" before an empty <code> in a link', '<p><a href="http://127.0.0.1/p">[]<strong>2)</strong><code></code>1.</a></p>'],
  ])('renders as the page showed it, an empty <code> being no code span: %s', (_what, html) => {
    expect(rendered(markdownOf(html))).toEqual(shown(html.replace('<code></code>', '')));
  });

  it('merges emphasis beside its like into one, where "_a__b_" and "**a****b**" showed their marks', () => {
    expect(markdownOf('<p><em>a</em><em>b</em> and <strong>c</strong><b>d</b></p>')).toBe('_ab_ and **cd**');
  });

  it('merges emphasis beside its like across a plain element\'s edge, where "x*a**b*y" showed "a**b" in one emphasis', () => {
    expect(markdownOf('<p><span>x<em>a</em></span><em>b</em>y</p>')).toBe('x*ab*y');
    expect(markdownOf('<p>x<em>a</em><span><em>b</em>y</span></p>')).toBe('x*ab*y');
  });
});

/**
 * A delimiter cannot open at a line's end nor close at a line's start, nor pair across a blank
 * line: a page's "<b>Tickets<br></b>At the door" was "**Tickets  \n**At the door", and a <b>
 * around paragraphs a "**" alone above and below them, all shown as asterisks.
 */
describe('emphasis holding a line break or paragraphs', () => {
  it.each([
    ['bold ending in a line break, a word after', '<p><strong>Tickets<br>\n</strong>At the door</p>'],
    ['bold starting with a line break', '<p>Opening <b><br>\nhours</b> daily</p>'],
    ['emphasis ending in a line break after a line break', '<p>x <em>a<br>\nb<br>\n</em> y</p>'],
    ['bold ending in a mark and a line break inside an item', '<ul><li><b>Name:<br>\n</b>value</li></ul>'],
    ['bold in brackets ending in a line break, a link after', '<p>[<strong>VIDEO]<br>\n</strong><a href="http://127.0.0.1/v">Highlights</a></p>'],
    ['bold inside a word ending in a line break', '<p>a<b>word<br>\n</b>b</p>'],
    ['bold ending a paragraph in a line break', '<p><strong>Heading<br>\n</strong></p>\n<p>next</p>'],
    ['bold holding two lines a blank line apart', '<p><b>one<br>\n<br>\ntwo</b></p>'],
    ['bold around paragraphs', '<div><b><p>para a</p>\n<p>para b</p></b></div>'],
    ['bold holding only a line break, between words', '<p>Tickets<strong><br></strong>At the door</p>'],
    ['emphasis holding a blank and a line break, in an item', '<ul><li>Name:<em> <br></em>value</li></ul>'],
    ['bold ending in a line break, ending a heading', '<h2>a <b>word<br></b></h2>'],
    ['bold starting with a line break, in a heading', '<h2>a<b><br>word</b> b</h2>'],
    ['emphasis ending in a line break before a blank, in a heading', '<h2><em>Note<br></em> more</h2>'],
    ['emphasis starting with a "!" after a word, a line break inside', '<p>x<em>!<br>a</em>#</p>'],
    ['bold ending in a "!" before a word, a line break inside', '<p>x<b>a<br>b!</b>y</p>'],
    ['emphasis starting with a "!" after a word, a line break inside, in an item', '<ul><li>x<em>!<br>a</em>#</li></ul>'],
  ])('renders as the page showed it: %s', (_what, html) => {
    expect(rendered(markdownOf(html))).toEqual(shown(html));
  });

  it('puts the line breaks outside the delimiters and emphasizes each paragraph alone', () => {
    expect(markdownOf('<p><strong>Tickets<br></strong>At the door</p>')).toBe('**Tickets**  \nAt the door');
    expect(markdownOf('<p><b>one<br><br>two</b></p>')).toBe('**one**\n\n**two**');
    expect(markdownOf('<div><b><p>para a</p><p>para b</p></b></div>')).toBe('**para a**\n\n**para b**');
    // A heading is one line: its <br> is a blank, outside the delimiters as a line break is.
    expect(markdownOf('<h2>a <b>word<br></b></h2>')).toBe('## a **word**');
    // A mark no delimiter can stand beside, facing a word, with a line break inside: HTML's tags,
    // as on one line, the break still Markdown's.
    expect(markdownOf('<p>x<em>!<br>a</em>#</p>')).toBe('x<em>!  \na</em>#');
  });

  it('leaves a heading, a list or a quote inside bold as it is, not inside delimiters', () => {
    expect(markdownOf('<div><b><h2>Head</h2><p>para</p><ul><li>item</li></ul><blockquote>q</blockquote></b></div>')).toBe('## Head\n\n**para**\n\n-   item\n\n> q');
  });
});

/**
 * Turndown trims an inline element's Markdown at both ends when its text has a blank at either
 * end, and a line break at the other end went with it: the words on either side of the break
 * ran together ("IntroOpening hours").
 */
describe('a line break at one end of an inline element, a blank at the other', () => {
  it.each([
    ['bold starting with a line break, ending in a blank', '<p>Intro<strong><br>Opening hours </strong>daily</p>'],
    ['bold ending in a line break, starting with a blank', '<p>Contact<b> Sales<br></b>sales desk</p>'],
    ['emphasis in bold ending in two line breaks, starting with a blank', '<p>Note<b>:<em> mind<br><br></em></b>the gap</p>'],
    ['a plain span ending in a line break, starting with a blank', '<p>Name:<span> Ada<br></span>Lovelace</p>'],
    ['a link ending in a line break, starting with a blank', '<p>One<a href="http://127.0.0.1/a"> link<br></a>next</p>'],
    ['a link holding only a line break', '<p>See<a href="http://127.0.0.1/a"><br></a>next</p>'],
    ['bold holding only a line break, in a heading', '<h2>Title<b><br></b>Sub</h2>'],
  ])('renders as the page showed it: %s', (_what, html) => {
    expect(rendered(markdownOf(html))).toEqual(shown(html));
  });

  it('writes the line break beside the element, and leaves code\'s breaks its lines', () => {
    expect(markdownOf('<p>Intro<strong><br>Opening hours </strong>daily</p>')).toBe('Intro  \n**Opening hours** daily');
    expect(markdownOf('<p>x<code>a<br></code>y</p>')).toBe('x\n\n```\na\n```\n\ny');
  });
});

/**
 * A text whose first mark escapeText escapes where a line starts ("1.", "-", "=", a "+" alone),
 * at the end of emphasis after a line break, before a word: its "." (or "-") went outside the
 * delimiters and its backslash stayed inside, escaping the delimiter's first "*"
 * ("a**b  \n1\\**.x"), and the asterisks showed. A "+" alone at the start, before a line
 * break, went outside without its marker, and the delimiter opened at the line's end.
 */
describe('an escaped mark at an end of emphasis, beside a word', () => {
  it.each([
    ['bold ending in a line break and "1." before a word', '<p>a<strong>b<br>1.</strong>x</p>'],
    ['emphasis ending in a line break and "1." before a word, in an item', '<ul><li>a<em>b<br>1.</em>x</li></ul>'],
    ['bold ending in a line break and "-" before a word', '<p>a<strong>b<br>-</strong>x</p>'],
    ['emphasis ending in a line break and "=" before a word', '<p>a<em>b<br>=</em>x</p>'],
    ['bold ending in a line break and a "+" alone before a word', '<p>a<b>b<br>+</b>x</p>'],
    ['bold ending in a "+" alone in a span before a word', '<p>a<b>c<span>+</span></b>x</p>'],
    ['emphasis starting with a "+" alone and a line break, after a word', '<p>a<em>+<br>b</em></p>'],
    ['bold starting with a "+" alone and a line break, after a word, in an item', '<ol><li>a<b>+<br>&gt;c</b>d</li></ol>'],
  ])('renders as the page showed it: %s', (_what, html) => {
    expect(rendered(markdownOf(html))).toEqual(shown(html));
  });

  it('moves the escaped mark outside whole, and keeps no escape a number no longer needs', () => {
    expect(markdownOf('<p>a<strong>b<br>1.</strong>x</p>')).toBe('a**b  \n1**.x');
    expect(markdownOf('<p>a<strong>b<br>-</strong>x</p>')).toBe('a**b**  \n\\-x');
    // An escaped backslash is text too: it went inside HTML's tags.
    expect(markdownOf('<p>a<b>c\\</b>x</p>')).toBe('a**c**\\\\x');
  });
});

/**
 * A link's words hold a blank line where a card's link parts its title from its summary
 * ("<a>Title<br><br>More</a>"): the blank line ended the paragraph inside the link, and its "["
 * and "](url)" showed as text, the link gone.
 */
describe('a link holding two line breaks in a row', () => {
  const links = (md: string): string[] => Array.from(marked.parse(md, { async: false, gfm: true }).matchAll(/<a href="([^"]*)"/g), (m) => m[1]!);

  it.each([
    ['two line breaks', '<p>See <a href="http://127.0.0.1/t">Spring tides<br><br>Why the water climbs</a> here</p>'],
    ['a no-break space between them', '<p><a href="http://127.0.0.1/t">Spring tides<br>&nbsp;<br>Why the water climbs</a></p>'],
    ['bold around them', '<p><a href="http://127.0.0.1/t"><b>Spring tides<br><br>Why</b> the water climbs</a></p>'],
    ['three, in an item', '<ul><li><a href="http://127.0.0.1/t">Spring tides<br><br><br>Why</a></li></ul>'],
  ])('keeps the link, its words on two lines: %s', (_what, html) => {
    const md = markdownOf(html);
    expect(links(md)).toEqual(['http://127.0.0.1/t']);
    expect(rendered(md)).toEqual(shown(html));
  });

  it('writes the blank line as a line break', () => {
    expect(markdownOf('<p><a href="http://127.0.0.1/t">Spring tides<br><br>Why</a></p>')).toBe('[Spring tides  \nWhy](http://127.0.0.1/t)');
  });
});

/**
 * A text ending in "!" right before a link: "Wow![link](/x)" is a picture in every Markdown
 * renderer, the link's words its alt text and its address the picture's.
 */
describe('a "!" before a link', () => {
  const pictures = (md: string): number => (marked.parse(md, { async: false, gfm: true }).match(/<img /g) ?? []).length;

  it.each([
    ['a word and "!" before a link', '<p>Wow!<a href="http://127.0.0.1/x">link</a></p>'],
    ['"!" alone before a link', '<p><span>!</span><a href="http://127.0.0.1/x">link</a></p>'],
    ['"!" before a link in bold', '<p>Yes!<a href="http://127.0.0.1/x"><b>link</b></a> here</p>'],
    ['"!" at the end of a list item\'s text before a link', '<ul><li>New!<a href="http://127.0.0.1/x">offer</a></li></ul>'],
  ])('renders the "!" and a link, not a picture: %s', (_what, html) => {
    const md = markdownOf(html);
    expect(pictures(md)).toBe(0);
    expect(rendered(md)).toEqual(shown(html));
    expect(marked.parse(md, { async: false, gfm: true })).toContain('<a href="http://127.0.0.1/x">');
  });

  it('escapes only a "!" a link follows', () => {
    expect(markdownOf('<p>Wow!<a href="http://127.0.0.1/x">link</a></p>')).toBe('Wow\\![link](http://127.0.0.1/x)');
    expect(markdownOf('<p>Wow! <a href="http://127.0.0.1/x">link</a> <b>Yes!</b> <img src="http://127.0.0.1/p.png" alt="p"></p>')).toBe('Wow! [link](http://127.0.0.1/x) **Yes!** ![p](http://127.0.0.1/p.png)');
  });
});

describe('code beside code', () => {
  it('is two code spans with their own content, where "`a``b`" was one span holding "a``b"', () => {
    const html = '<p><code>a</code><code>b</code></p>';
    expect(rendered(markdownOf(html))).toEqual(shown(html));
  });

  it('is two code spans with an empty element between, where "`a``b`" was one span', () => {
    const html = '<p><code>a</code><span class="sep"></span><code>b</code></p>';
    expect(rendered(markdownOf(html))).toEqual(shown(html));
  });

  it('keeps its backticks and Markdown\'s marks as code on either side', () => {
    const html = '<p>Run <code>x`y</code><code>*p_q* [r]</code><span><code>`</code></span> now</p>';
    expect(rendered(markdownOf(html))).toEqual(shown(html));
  });
});

describe('any row of inline elements', () => {
  // Styled words, marks between and in emphasis of their own, and emphasis holding words and
  // emphasis of the other kind.
  type Part = [string, string | Part[]];
  const word = fc.array(fc.constantFrom(...'ab1'.split('')), { minLength: 1, maxLength: 3 }).map((w) => w.join(''));
  const marksOf = (chars: string) => fc.array(fc.constantFrom(...chars.split('')), { minLength: 1, maxLength: 3 }).map((w) => w.join(''));
  const marks = marksOf('.,`*_ (');
  const OTHER: Record<string, string[]> = { em: ['strong', 'b'], i: ['strong', 'b'], strong: ['em', 'i'], b: ['em', 'i'] };
  const code = fc.tuple(word, marksOf('.,`*_<&[')).map((p) => p.join(''));
  // Code among an emphasis's words puts its backticks at the emphasis's edges too, and a blank
  // beside an inner emphasis makes its delimiter flank one way only.
  const spaced = fc.oneof(word, word.map((w) => ` ${w}`), word.map((w) => `${w} `));
  const nested: fc.Arbitrary<Part> = fc
    .constantFrom(...Object.keys(OTHER))
    .chain((outer) =>
      fc.tuple(
        fc.constant(outer),
        fc.array(fc.oneof(fc.tuple(fc.constantFrom(...OTHER[outer]!), word), fc.tuple(fc.constant(''), spaced), fc.tuple(fc.constant('code'), code)), { minLength: 1, maxLength: 4 }),
      ),
    );
  const piece: fc.Arbitrary<Part> = fc.oneof(
    fc.tuple(fc.constantFrom('em', 'i', 'strong', 'b', 'span', 'u', 'span>em', 'span>b', 'em>b'), fc.tuple(word, fc.constantFrom('', ' ', '.', '`', '('), word).map((p) => p.join(''))),
    fc.tuple(fc.constantFrom('code', 'span>code'), code),
    fc.tuple(fc.constant(''), fc.oneof(word, marks)),
    fc.tuple(fc.constantFrom('em', 'i', 'strong', 'b'), marks),
    nested,
  );
  const html = (parts: Part[]): string =>
    parts
      .map(([tags, inner]) => {
        const names = tags ? tags.split('>') : [];
        return `${names.map((n) => `<${n}>`).join('')}${typeof inner === 'string' ? escapeHtml(inner) : html(inner)}${names.reverse().map((n) => `</${n}>`).join('')}`;
      })
      .join('');

  it('renders as the page showed it: each letter in its styles, each code span with its content', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 2, maxLength: 5 }), (parts) => {
        const page = `<p>${html(parts)}</p>`;
        expect(rendered(markdownOf(page))).toEqual(shown(page));
      }),
      // Seeded, so a CI run never meets a row no run here met: 40,000 rows of random seeds found
      // none read wrong (2026-12-06); with code among an emphasis's words, 386 of 8,000 rows were
      // read wrong before delimited's HTML fallbacks, and with blanks and marks-only emphasis too
      // none of 16,000 after. 300 rows
      // took 2.7 s alone at a load of 12.8 on 2 cores (600 took up to 3.8 s, and 4.4 s beside two
      // other test files).
      { numRuns: 300, seed: 20261206 },
    );
  });
});
