/**
 * A video, a sound or an embedded page the article keeps is a link in Markdown: an embedded
 * video was nothing ("A video of the flock:" and no more), a <video> its fallback text.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';
import { markdownOf } from '../../src/main/fetch/html';

const FILL = 'The birds gather on the mud at low tide, and the article describes them at length so that it reads as an article.';
const page = (body: string): string =>
  `<!doctype html><html><head><title>Knots</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>Knots</h1><p>${FILL}</p>${body}<p>${FILL}</p><p>${FILL}</p></article></main></body></html>`;

describe('an embed in the article', () => {
  it('is a link to the video a frame shows, named by its title', () => {
    const md = extractArticle(page('<p>A video of the flock: <iframe src="https://www.youtube.com/embed/abc123" title="Flock of knots"></iframe></p>'), 'https://birds.example/knots').markdown;
    expect(md).toContain('A video of the flock:\n\n[Flock of knots](https://www.youtube.com/embed/abc123)\n\n');
  });

  it('is a link to a <video>, its source resolved against the page, in place of its fallback text', () => {
    const md = extractArticle(page('<video controls><source src="/media/knots.mp4" type="video/mp4">Your browser does not play video.</video>'), 'https://birds.example/knots').markdown;
    expect(md).toContain('\n\n[video](https://birds.example/media/knots.mp4)\n\n');
    expect(md).not.toContain('does not play');
  });

  it('leaves the fallback text out of text mode too, as a browser that plays or draws it shows none', () => {
    const text = extractArticle(
      page('<video controls><source src="/media/knots.mp4">Your browser does not play video.</video><p>Their call: <audio src="/call.mp3">No audio here.</audio></p><canvas>Your browser does not draw.</canvas>'),
      'https://birds.example/knots',
    ).text;
    expect(text).toContain('Their call:');
    expect(text).not.toMatch(/does not play|No audio|does not draw/);
  });

  it('takes a scheme-relative frame as https, and escapes brackets in a title', () => {
    expect(markdownOf('<iframe src="//player.example/v/1" title="Knots [HD]"></iframe>')).toBe('[Knots \\[HD\\]](https://player.example/v/1)');
    expect(markdownOf('<audio src="https://a.example/call.mp3"></audio>')).toBe('[audio](https://a.example/call.mp3)');
    // A frame without a title is named by where it comes from.
    expect(markdownOf('<iframe src="https://maps.example/embed?q=estuary"></iframe>')).toBe('[embedded from maps.example](https://maps.example/embed?q=estuary)');
  });

  it('is nothing, as before, without an address on the web', () => {
    expect(markdownOf('<p>a</p><iframe src="javascript:alert(1)"></iframe><iframe></iframe><iframe src="data:text/html,x"></iframe><p>b</p>')).toBe('a\n\nb');
    expect(markdownOf('<video>Fallback words</video>')).toBe('Fallback words');
  });
});
