/**
 * HTML lets a page leave out <html>, <head>, <body> and their end tags; a browser's parser
 * puts them back. parseDocument does the same, so a minified page is not read as empty.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle, extractLinks, extractMeta, parseDocument } from '../../src/main/fetch/html';

const P = 'The harbour master keeps the tide tables, and every skipper reads them before leaving port at dawn. '.repeat(3);
const ARTICLE = `<h1>Harbour news</h1><p>${P}</p><p>${P}</p>`;

describe('pages without their optional tags', () => {
  it.each([
    ['no tags at all', ARTICLE],
    ['a doctype and a title, then the body', `<!doctype html><title>Harbour</title>${ARTICLE}`],
    ['<html lang> with head elements, no head or body', `<!doctype html><html lang=en><meta charset=utf-8><title>Harbour</title><link rel=icon href=/i.png>${ARTICLE}`],
    ['a head, then the body without <body>', `<html><head><title>Harbour</title></head>${ARTICLE}</html>`],
    ['no head, an explicit body', `<html><title>Harbour</title><body>${ARTICLE}</body></html>`],
    ['head and body without <html>', `<head><title>Harbour</title></head><body>${ARTICLE}</body>`],
    ['a comment first', `<!-- built 2024 --><title>Harbour</title>${ARTICLE}`],
  ])('%s: the article is read', (_name, html) => {
    const a = extractArticle(html, 'https://port.test/news');
    expect(a.text).toContain('every skipper reads them');
    expect(a.text.match(/harbour master/g)).toHaveLength(6);
  });

  it('keeps head elements in the head and everything from the first other node in the body, in order', () => {
    const doc = parseDocument('<!doctype html><meta charset=utf-8><title>T</title>text first<p>one</p><script>x()</script><p>two</p>', '');
    expect(doc.documentElement.tagName).toBe('HTML');
    expect(doc.head.innerHTML).toBe('<meta charset="utf-8"><title>T</title>');
    expect(doc.body.innerHTML).toBe('text first<p>one</p><script>x()</script><p>two</p>');
    // What came before an explicit <body> starts it; what came after it ends it.
    const split = parseDocument('<html><title>T</title><p>before</p><body><p>inside</p></body><p>after</p></html>', '');
    expect(split.body.textContent).toBe('beforeinsideafter');
    expect(split.documentElement.children.length).toBe(2);
  });

  it('an empty page, blanks or bare words do not throw', () => {
    for (const html of ['', '   \n', 'just words', '<!-- only a comment -->']) {
      const a = extractArticle(html, 'https://port.test/');
      expect(a.text.trim()).toBe(html.includes('words') ? 'just words' : '');
      expect(extractLinks(html, 'https://port.test/')).toEqual([]);
      expect(extractMeta(html, 'https://port.test/').title).toBe('');
    }
  });

  it('leaves a page that has its html, head and body as parsed', () => {
    const doc = parseDocument(`<!doctype html><html><head><title>T</title></head><body>${ARTICLE}</body></html>`, '');
    expect(doc.body.innerHTML).toBe(ARTICLE);
  });
});
