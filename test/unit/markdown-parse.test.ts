import { readFileSync } from 'node:fs';
import path from 'node:path';
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { describe, expect, it } from 'vitest';
import { markdownOf } from '../../src/main/fetch/html';

/**
 * markdownOf parses every article into one kept document instead of letting turndown build a
 * new one per call (the largest part of a short page's conversion). The tree, and so the
 * Markdown, must be the same as turndown's own string path gives, case by case.
 */
const cases = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/turndown/cases.json'), 'utf8')) as { name: string; input: string }[];

function upstream(html: string): string {
  const t = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  t.use(gfm);
  t.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button']);
  return t.turndown(html).replace(/\n{3,}/g, '\n\n').trim();
}

describe('markdownOf parses as turndown does', () => {
  it('has the corpus', () => expect(cases.length).toBe(147));

  it.each(cases.map((c) => [c.name, c.input] as const))('%s', (_name, input) => {
    expect(markdownOf(input)).toBe(upstream(input));
  });

  it('a conversion leaves nothing behind for the next one (ids, unclosed elements)', () => {
    const first = markdownOf('<p id="a">one <b>open bold<table><tr><td>cell');
    expect(markdownOf('<p id="a">two</p>')).toBe('two');
    expect(markdownOf('<p id="a">one <b>open bold<table><tr><td>cell')).toBe(first);
  });
});
