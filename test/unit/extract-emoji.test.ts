/**
 * Emoji drawn as pictures: blogs and forums swap each emoji for an <img> whose alt is the emoji.
 * The Markdown had "![😀](https://…/1f600.svg)" mid-sentence and the text nothing at all.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';

const FILL = 'The weather held all day long for the walk along the cliffs and the beach, and the drive home was slow and golden.';
const img = (alt: string): string => `<img draggable="false" role="img" class="emoji" alt="${alt}" src="https://s.example/emoji/${encodeURIComponent(alt)}.svg">`;
const page = (p: string): string => `<!doctype html><html><head><title>Weekend</title></head><body><main><article><h1>Weekend</h1><p>${p}</p><p>${FILL}</p><p>${FILL}</p></article></main></body></html>`;

describe('an emoji drawn as a picture', () => {
  it('is the emoji in Markdown and in text, skin tones, joined sequences and flags too', () => {
    const a = extractArticle(page(`It was lovely ${img('😀')} and ${img('👍🏽')} with ${img('👩‍👩‍👧')} under ${img('🇫🇷')} flags. ${FILL}`), 'https://blog.example/w');
    for (const out of [a.markdown, a.text]) expect(out).toContain('It was lovely 😀 and 👍🏽 with 👩‍👩‍👧 under 🇫🇷 flags.');
    expect(a.markdown).not.toContain('](https://s.example/emoji');
  });

  it('leaves any other picture a picture: words, a digit, an emoji among words', () => {
    const md = extractArticle(page(`${img('The cliffs')} ${img('1')} ${img('😀 smiling')} ${FILL}`), 'https://blog.example/w').markdown;
    expect(md).toContain('![The cliffs](');
    expect(md).toContain('![1](');
    expect(md).toContain('![😀 smiling](');
  });
});
