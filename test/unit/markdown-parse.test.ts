import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractArticle, markdownOf, markdownOfTree, parseDocument } from '../../src/main/fetch/html';

/**
 * markdownOf parses every article into one kept document instead of letting turndown build a
 * new one per call (the largest part of a short page's conversion). The tree, and so the
 * Markdown, must be the same as turndown's own string path gives, case by case.
 */
const cases = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/turndown/cases.json'), 'utf8')) as { name: string; input: string }[];

/** Cases where a rule of Sift's own (html.ts, convert) writes better Markdown than turndown, with what it writes. */
const OWN_RULES = new Map([
  // A <pre> without <code> is preformatted text: a fenced block, not a paragraph escaped.
  ['escaping ~~~', '```\n~~~ foo\n```'],
  // The code's blank lines are its own: Sift collapses runs of them only outside a fence.
  // A leading no-break space stays (trim() took it, and the text became a list), as turndown has it.
  ['list-like text with non-breaking spaces', '\u00a01. First  \n\u00a02. Second'],
  // An underscore inside a word is no emphasis in CommonMark: it needs no backslash.
  ['escaping _ inside em tags', '_test_italics_'],
  // A "*" or "_" with a blank on each side inside a line can neither open nor close emphasis
  // (CommonMark's flanking rules): it needs no backslash. One at a line's start still has one,
  // so "* * *" stays text, not a break.
  ['escaping *', 'You can use * for multiplication'],
  ['escaping multiple asterisks', '\\* * ** It aims to be\\*'],
  ['escaping hr markdown with *', '\\* * \\*'],
  ['escaping hr markdown with _', '\\_ _ \\_'],
  ['escaping hr markdown with more than 3 characters', '\\* * * * \\*'],
  // A quote's blank line is ">" alone, as text mode writes it: "> " left a blank at the line's end.
  ['blockquote', '> This is a paragraph within a blockquote.\n>\n> This is another paragraph within a blockquote.'],
  ['nested blockquotes', '> This is the first level of quoting.\n>\n> > This is a paragraph in a nested blockquote.\n>\n> Back to the first level.'],
  [
    'html in blockquote',
    "> ## This is a header.\n>\n> 1.  This is the first list item.\n> 2.  This is the second list item.\n>\n> A code block:\n>\n> ```\n> return 1 < 2 ? shell_exec('echo $input | $markdown_script') : 0;\n> ```",
  ],
  // Brackets at a line's start that no definition or task's box makes Markdown: Sift writes no definition.
  ['escaping []', '[This] is a sentence with brackets'],
  ['pre/code block with multiple new lines', '```\nMultiple new lines\n\n\nshould not be\n\n\nremoved\n```'],
]);

function upstream(html: string): string {
  const t = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  t.use(gfm);
  t.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button']);
  // Sift's own blank lines (collapseBlankLines): runs as one, a line of only blanks blank, no blanks before one.
  return t.turndown(html).replace(/[ \t]*\n(?:[ \t\u00a0]*\n)+/g, '\n\n').trim();
}

describe('markdownOf parses as turndown does', () => {
  it('has the corpus', () => expect(cases.length).toBe(147));

  it.each(cases.filter((c) => !OWN_RULES.has(c.name)).map((c) => [c.name, c.input] as const))('%s', (_name, input) => {
    expect(markdownOf(input)).toBe(upstream(input));
  });

  it.each([...OWN_RULES])('%s: as Sift\'s own rule writes it', (name, expected) => {
    expect(markdownOf(cases.find((c) => c.name === name)!.input)).toBe(expected);
  });

  it('a conversion leaves nothing behind for the next one (ids, unclosed elements)', () => {
    const first = markdownOf('<p id="a">one <b>open bold<table><tr><td>cell');
    expect(markdownOf('<p id="a">two</p>')).toBe('two');
    expect(markdownOf('<p id="a">one <b>open bold<table><tr><td>cell')).toBe(first);
  });
});

/**
 * extractArticle hands turndown a copy of linkedom's tree (markdownOfTree) instead of its
 * serialized HTML: the Markdown must be what the serialize-and-parse gave.
 */
const bodyOfPage = (html: string) => parseDocument(`<!doctype html><html><head></head><body>${html}</body></html>`, '').body;

describe('markdownOfTree converts a linkedom tree as markdownOf converts its HTML', () => {
  const bodyOf = bodyOfPage;

  it.each(cases.map((c) => [c.name, c.input] as const))('%s', (_name, input) => {
    const body = bodyOf(input);
    expect(markdownOfTree(body as never)).toBe(markdownOf(body.innerHTML));
  });

  it('joins the adjacent text nodes an edit leaves, as a parse does (turndown escapes a ">" opening a text node)', () => {
    const body = bodyOf('<p>watch <span id="x">x</span>&gt; Tale of Jang</p><p>line</p>');
    body.querySelector('#x')!.remove();
    const tree = markdownOfTree(body as never);
    expect(tree).toBe(markdownOf(body.innerHTML));
    expect(tree).toContain('watch > Tale');
  });

  it('keeps comments (whitespace either side is collapsed apart) and leaves template contents out', () => {
    for (const html of [
      '<div>  <!-- a -->   <p>one</p>  <!-- b -->  two</div><pre>  <!-- c -->  code</pre>',
      '<p>kept</p><template><p>never shown</p></template>',
      '<p>a <x:y>b</x:y> c</p><p data-x="1" title="t">d</p>',
    ]) {
      const body = bodyOf(html);
      expect(markdownOfTree(body as never), html).toBe(markdownOf(body.innerHTML));
    }
    expect(markdownOfTree(bodyOf('<p>kept</p><template><p>never shown</p></template>') as never)).toBe('kept');
  });

  it('converts elements and attributes whose names the DOM refuses (turndown\'s own clone threw on them)', () => {
    const body = bodyOf('<p>a <weird"name>b</weird"name> c</p><p a"b="1">d</p>');
    expect(markdownOfTree(body as never)).toBe('a b c\n\nd');
    expect(markdownOf(body.innerHTML)).toBe('a b c\n\nd');
    const para = 'Sift keeps the article of a page and leaves the rest of it out, whatever the markup holds.';
    const a = extractArticle(`<html><body><article><h1>Odd</h1><p>${para} <weird"name>named oddly</weird"name></p><p>${para}</p></article></body></html>`, 'http://example.com/');
    expect(a.markdown).toContain('named oddly');
  });

  it('gives extractArticle the Markdown of its cleaned HTML, on real pages', () => {
    const dir = path.join(__dirname, '../fixtures/readability');
    const pages = readdirSync(dir).filter((d) => existsSync(path.join(dir, d, 'source.html')));
    expect(pages.length).toBeGreaterThan(0);
    for (const d of pages) {
      const a = extractArticle(readFileSync(path.join(dir, d, 'source.html'), 'utf8'), 'http://example.com/a/b');
      const body = markdownOf(a.html);
      expect(a.markdown, d).toBe(a.title && !body.startsWith('# ') ? `# ${a.title}\n\n${body}` : body);
    }
  });
});

describe('conversion never throws on markup the tables plugin cannot place', () => {
  it('a cell or row with no table above it keeps its text (the plugin threw looking up its table)', () => {
    expect(markdownOf('<svg><td>inside svg</td></svg>')).toBe('inside svg');
    expect(markdownOf('<p>a <svg><tr><th>x</th></tr></svg> b</p>')).toBe('a x b');
    const para = 'Sift keeps the article of a page and leaves the rest of it out, whatever the markup holds.';
    const a = extractArticle(`<html><body><article><h1>Cells</h1><p>${para}</p><p>${para} <svg><td>kept cell text</td></svg></p></article></body></html>`, 'http://example.com/');
    expect(a.markdown).toContain('kept cell text');
  });

  it('an article with a table is parsed, as before, so text inside <table> and a stray <td> come out', () => {
    const body = bodyOfPage('<table>loose text<tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table><p><td>stray</td></p>');
    expect(markdownOfTree(body as never)).toBe(markdownOf(body.innerHTML));
    expect(markdownOfTree(body as never)).toContain('| a   | b   |');
  });

  it('holds for random markup: cells, tables, svg, templates, comments and odd names (fast-check)', () => {
    const text = fc.string({ maxLength: 20 }).map((s) => s.replace(/[<>&]/g, ' '));
    const tag = fc.constantFrom('p', 'div', 'b', 'pre', 'code', 'a', 'li', 'ul', 'template', 'svg', 'h2', 'blockquote', 'table', 'tr', 'td', 'th', 'tbody', 'caption', 'img', 'br');
    const node: fc.Arbitrary<string> = fc.letrec<{ n: string }>((t) => ({
      n: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.constantFrom('<!-- c -->', '&amp;', '> q', '<weird"name>w</weird"name>'),
        fc.tuple(tag, fc.array(t('n'), { maxLength: 4 })).map(([name, kids]) => `<${name}>${kids.join('')}</${name}>`),
      ),
    })).n;
    const para = 'Sift keeps the article of a page and leaves the rest of it out. '.repeat(4);
    fc.assert(
      fc.property(fc.array(node, { maxLength: 6 }), (parts) => {
        const a = extractArticle(`<html><body><article><h1>T</h1><p>${para}</p>${parts.join('')}</article></body></html>`, 'http://example.com/');
        expect(typeof a.markdown).toBe('string');
      }),
      { numRuns: 300 },
    );
  });
});
