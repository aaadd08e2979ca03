/**
 * Markdown that renders as the page did: a link around blocks (a card), a line break in a
 * heading, emphasis inside a word.
 */
import { describe, expect, it } from 'vitest';
import { markdownOf } from '../../src/main/fetch/html';

describe('a link around blocks (a card)', () => {
  it('puts the link on its heading and keeps its blocks, where it was "[" and "](url)" on lines of their own', () => {
    const md = markdownOf('<p>Read on:</p><a href="/guide" title="The guide"><h3>The guide</h3><p>Everything about the harbour.</p></a><p>after</p>');
    expect(md).toBe('Read on:\n\n### [The guide](/guide "The guide")\n\nEverything about the harbour.\n\nafter');
  });

  it('puts it on the first line of text when there is no heading, and on a line of its own when there is no text', () => {
    expect(markdownOf('<a href="/a"><div><p>First line</p><p>Second line</p></div></a>')).toBe('[First line](/a)\n\nSecond line');
    expect(markdownOf('<a href="/b c"><ul><li>one</li><li>two</li></ul></a>')).toBe('-   one\n-   two\n\n[/b c](</b c>)');
  });

  it('puts it inside a heading that is the only block, where "[## Title](url)" was no heading at all', () => {
    expect(markdownOf('<p>Sections:</p><a href="/install"><h2>Install</h2></a><a href="/use"><div><h3>Use</h3></div></a>')).toBe(
      'Sections:\n\n## [Install](/install)\n\n### [Use](/use)',
    );
  });

  it('is an ordinary link when its blocks come out as one line (a <div> holding a picture)', () => {
    expect(markdownOf('<p>x</p><a href="/big.jpg"><div><img src="/small.jpg" alt="Photo"></div></a>')).toBe('x\n\n[![Photo](/small.jpg)](/big.jpg)');
  });

  it('leaves a heading that already holds a link alone, and an inline link inline', () => {
    expect(markdownOf('<a href="/card"><h3><img src="/i.png" alt="Icon"> [Draft] Plan</h3><p>Text line</p></a>')).toBe('### ![Icon](/i.png) [Draft] Plan\n\n[Text line](/card)');
    expect(markdownOf('<a href="/card"><h3>[Draft] Plan</h3><p>Text line</p></a>')).toBe('### [\\[Draft\\] Plan](/card)\n\nText line');
    expect(markdownOf('<p>See <a href="/x">the <b>docs</b></a>.</p>')).toBe('See [the **docs**](/x).');
  });
});

describe('a line break in a heading', () => {
  it('is a space: an ATX heading is one line', () => {
    expect(markdownOf('<h2>First line<br>second line</h2><p>Body</p>')).toBe('## First line second line\n\nBody');
  });
});

describe('the rules that look for a tag inside or around an element', () => {
  // They walk the tree by tag name (holdsTag, insideTag) instead of asking domino's selectors,
  // which compile at every call: these are the answers the selectors gave.
  it('find it at any depth', () => {
    expect(markdownOf('<a href="/n"><span><span><p>Deep card</p></span></span></a>')).toBe('[Deep card](/n)');
    expect(markdownOf('<h2>One <span><b>two<br>three</b></span></h2><p>x</p>')).toBe('## One **two three**\n\nx');
    expect(markdownOf('<table><tr><th>h</th></tr><tr><td><span><b>a<br>b</b></span></td></tr></table>')).toBe('| h   |\n| --- |\n| **a<br>b** |');
    expect(markdownOf('<div><p><code>one<span><br></span>two</code></p></div>')).toBe('```\none\ntwo\n```');
    expect(markdownOf('<p><kbd><span><kbd>Cmd</kbd></span>+C</kbd></p>')).toBe('<kbd>Cmd</kbd>+C');
    expect(markdownOf('<p><a href="/i"><span><img src="/i.png"></span></a> and <a href="/e"><span> </span></a>.</p>')).toBe('[![](/i.png)](/i) and .');
  });
});

describe('emphasis', () => {
  it('inside a word is written with asterisks, which CommonMark reads there ("_emph_asis" is no emphasis)', () => {
    expect(markdownOf('<p>An <em>emph</em>asis, a re<i>mark</i>, and <b>bold</b>ly.</p>')).toBe('An *emph*asis, a re*mark*, and **bold**ly.');
  });

  it('ending in a mark against a word has the mark outside it, where no delimiter could close', () => {
    // '_Night “_should' and '**bold.**Next' are no emphasis in CommonMark: a delimiter after
    // a mark and before a letter does not close.
    expect(markdownOf('<p>The <em>Scholars of Night “</em>should’ve, a title’s <em>end,”</em>said he, <b>bold.</b>Next, “<i>¡Hola</i>, and <em><a href="/x">a link</a>.</em>Then</p>')).toBe(
      'The _Scholars of Night_ “should’ve, a title’s _end_,”said he, **bold**.Next, “_¡Hola_, and _[a link](/x)_.Then',
    );
    // Only marks: nothing can move, and no delimiter opens or closes there ("a*.*b" showed its
    // asterisks), so the marks go without their emphasis.
    expect(markdownOf('<p>a<em>.</em>b</p>')).toBe('a.b');
  });

  it('between blanks or beside a link keeps underscores, as before', () => {
    expect(markdownOf('<p>An <em>emphasis</em> and <a href="/x">a link</a><em>.</em> <em> spaced </em>end.</p>')).toBe('An _emphasis_ and [a link](/x)_._ _spaced_ end.');
  });
});

describe('a definition list', () => {
  it('is the term, then ":   " and its definition, as pandoc, kramdown and Python-Markdown write one', () => {
    const md = markdownOf(
      '<p>Before</p><dl><dt>Crawler</dt><dd>A program that follows links.</dd><dt>Scraper</dt><dt>Extractor</dt><dd>A program that <b>extracts</b> data.</dd><dd><p>Second definition.</p><p>With two paragraphs.</p></dd></dl><p>After</p>',
    );
    expect(md).toBe(
      'Before\n\nCrawler\n:   A program that follows links.\n\nScraper\nExtractor\n:   A program that **extracts** data.\n:   Second definition.\n\nWith two paragraphs.\n\nAfter',
    );
  });

  it('with no term at all (how wikis indent, a display formula among them) is its blocks as they are', () => {
    expect(markdownOf('<p>Before</p><dl><dd>Indented once.</dd></dl><p>After</p>')).toBe('Before\n\nIndented once.\n\nAfter');
  });
});

describe('highlighted and inserted words (<mark>, <ins>)', () => {
  it('stay marked, as GFM renders the tags, with their Markdown inside; empty ones are nothing', () => {
    expect(markdownOf('<p>Found <mark>three <b>tides</b></mark> and <ins>a new line</ins>, not <del>old</del>; <mark> </mark>end.</p>')).toBe(
      'Found <mark>three **tides**</mark> and <ins>a new line</ins>, not ~~old~~; end.',
    );
  });
});

describe('a key to press (<kbd>)', () => {
  it('stays marked, as GFM renders the tag; a combination of keys marks each key', () => {
    expect(markdownOf('<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, or <kbd><kbd>Cmd</kbd>+<kbd>C</kbd></kbd>; <kbd> </kbd> is nothing.</p>')).toBe(
      'Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, or <kbd>Cmd</kbd>+<kbd>C</kbd>; is nothing.',
    );
  });
});
