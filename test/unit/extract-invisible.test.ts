/**
 * Characters that only tell a browser where it may break a line (the soft hyphen inside long
 * words, the word joiner): kept in the text, they cut words in two for grep, question and
 * search.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle, markdownOf } from '../../src/main/fetch/html';

const PAGE = `<!doctype html><html lang="de"><head><title>Donau&shy;dampf&shy;schiff</title></head><body><main><article><h1>Donau&shy;dampf&shy;schiff</h1>
<p>Die Donau&shy;dampf&shy;schiff&shy;fahrts&shy;gesellschaft ist ein außer&shy;ordentlich langes Wort, das Zeitungen mit weichen Trennstrichen setzen, damit der Browser es trennen kann.</p>
<p>Das Wort&#8288;verbinde&#8288;zeichen und ein verirrtes&#65279;Zeichen stehen mitten in Wörtern, und die Suche soll sie trotzdem finden, ohne dass der Leser etwas merkt.</p>
<p lang="fa">می&zwnj;خواهم یک کتاب بخوانم، و نیم‌فاصله بخشی از نوشتار است.</p><p lang="th">ภาษาไทย&#8203;ไม่มี&#8203;ช่องว่าง</p>
<pre>code&shy;block</pre></article></main></body></html>`;

describe('soft hyphens and word joiners', () => {
  const a = extractArticle(PAGE, 'https://zeitung.example/silben');

  it('are gone from the Markdown, the text and the title, so the words are whole', () => {
    for (const out of [a.markdown, a.text, a.title]) expect(out).not.toMatch(/[\u00ad\u2060\ufeff]/);
    expect(a.title).toBe('Donaudampfschiff');
    expect(a.text).toContain('Die Donaudampfschifffahrtsgesellschaft ist ein außerordentlich langes Wort');
    expect(a.markdown).toContain('Das Wortverbindezeichen und ein verirrtesZeichen');
  });

  it('leave the joiners a script needs (ZWNJ in Persian, the zero-width space between Thai words), and html mode as written', () => {
    expect(a.text).toContain('می\u200cخواهم');
    expect(a.text).toContain('ภาษาไทย\u200bไม่มี\u200bช่องว่าง');
    expect(a.html).toContain('Donau\u00addampf');
  });
});

describe('a paragraph of nothing but zero-width characters', () => {
  it('is no line of the Markdown, where it was a line that looked blank but was not, between blank lines', () => {
    const md = markdownOf('<p>Thank you all.</p><p>&#8203;</p><p>&#8203;&#8204; &#8205;</p><p>See you soon.</p>');
    expect(md).toBe('Thank you all.\n\nSee you soon.');
  });

  it('leaves a zero-width space between words as it is', () => {
    expect(markdownOf('<p>ภาษาไทย&#8203;ไม่มี</p>')).toBe('ภาษาไทย\u200bไม่มี');
  });
});

describe('a no-break space at the end of a line (a page\'s "&nbsp;" closing a paragraph or an item)', () => {
  it('is no part of the Markdown, in a paragraph, a list item or a heading; a code block keeps its own', () => {
    expect(markdownOf('<p>Ends here.&nbsp;</p><ul><li>one&nbsp;</li><li>two</li></ul><h2>Title&nbsp;&nbsp;</h2><pre>x\u00a0\ny</pre>')).toBe(
      'Ends here.\n\n-   one\n-   two\n\n## Title\n\n```\nx\u00a0\ny\n```',
    );
  });

  it('leaves one at the start of a line, where it keeps "1. First" from being a list, and a line break after one', () => {
    expect(markdownOf('<p>&nbsp;1. First</p><p>a&nbsp;<br>b</p>')).toBe('\u00a01. First\n\na\u00a0  \nb');
  });
});
