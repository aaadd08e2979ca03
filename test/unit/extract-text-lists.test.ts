/**
 * Lists in text mode: an item was a line like any other, so a list read as short paragraphs
 * and a nested list as more items of the outer one. A list of bullets has them, as a browser
 * draws them, and a nested list is indented.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';

const FILL = 'The guide walks through packing for a week on the water, with what to bring and what to leave on the quay.';
const page = (body: string): string =>
  `<!doctype html><html><head><title>Packing</title></head><body><main><article><h1>Packing</h1><p>${FILL}</p>${body}<p>${FILL}</p></article></main></body></html>`;

describe('a list in text', () => {
  it('has a bullet before each item, a nested list indented two blanks a level with the bullet of its depth', () => {
    const t = extractArticle(
      page('<ul><li><p>Clothes</p><ul><li>Oilskins</li><li>Boots<ul><li>spare laces</li></ul></li></ul></li><li>Food</li><li></li></ul>'),
      'https://guide.example/packing',
    ).text;
    expect(t).toContain(`${FILL}\n\n• Clothes\n\n  ◦ Oilskins\n  ◦ Boots\n    ▪ spare laces\n• Food\n\n${FILL}`);
  });

  it('keeps an ordered list\'s items as lines, its nested items indented, with no Markdown marks', () => {
    const t = extractArticle(page('<ol><li>Check the forecast<ol><li>wind</li><li>tide</li></ol></li><li>File a plan</li></ol>'), 'https://guide.example/packing').text;
    expect(t).toContain('\n\nCheck the forecast\n  wind\n  tide\nFile a plan\n\n');
    expect(t).not.toMatch(/^\s*(?:[-*+]|\d+\.)\s/m);
  });

  it("leaves a page's own control characters out, so they cannot pass for an indent", () => {
    const t = extractArticle(page('<p>Tide\u0001tables at the office.</p><ul><li>one</li></ul>'), 'https://guide.example/packing').text;
    expect(t).toContain('Tidetables at the office.\n\n• one');
  });
});
