/**
 * Pictures loaded late: a placeholder in src and the picture in an attribute a script swaps
 * in. Readability reads such attributes only when src is empty, a data: URI or the class says
 * "lazy", so the article had the placeholder.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';

const FILL = 'The gallery shows the harbour through the seasons, each photograph taken from the same spot on the old sea wall.';
const page = (body: string): string =>
  `<!doctype html><html><head><title>Harbour</title></head><body><main><article><h1>Harbour</h1><p>${FILL}</p>${body}<p>${FILL}</p></article></main></body></html>`;
const imagesOf = (md: string): string[] => [...md.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map((m) => m[1]!);

describe('a picture loaded late', () => {
  it.each([
    ['lazysizes (data-src, a placeholder GIF in src)', '<img src="/blank.gif" data-src="/photos/spring.jpg" alt="Spring">', 'https://harbour.example/photos/spring.jpg'],
    ['a WordPress plugin (data-lazy-src, an SVG placeholder)', '<img src="/lazy.svg" data-lazy-src="/photos/spring.jpg" alt="Spring">', 'https://harbour.example/photos/spring.jpg'],
    ['jQuery lazyload (data-original)', '<img src="/grey.png" data-original="https://cdn.harbour.example/spring.jpg" alt="Spring">', 'https://cdn.harbour.example/spring.jpg'],
    ['a srcset only (data-srcset): its widest candidate', '<img src="/blank.gif" data-srcset="/photos/s-400.jpg 400w, /photos/s-1200.jpg 1200w" alt="Spring">', 'https://harbour.example/photos/s-1200.jpg'],
    [
      'a <picture> whose <img> is lazy too',
      '<picture><source type="image/webp" data-srcset="/photos/s.webp"><img src="/blank.gif" data-src="/photos/spring.jpg" alt="Spring"></picture>',
      'https://harbour.example/photos/spring.jpg',
    ],
  ])('is the picture, not the placeholder: %s', (_what, img, want) => {
    const a = extractArticle(page(`<figure>${img}</figure>`), 'https://harbour.example/gallery');
    expect(imagesOf(a.markdown)).toEqual([want]);
    expect(a.html).not.toMatch(/blank\.gif|lazy\.svg|grey\.png/);
  });

  it("keeps src when the script's attribute is no URL (its settings as JSON), and a picture with no such attribute as it is", () => {
    const a = extractArticle(
      page(`<p><img src="/photos/fallback.jpg" data-src='{"default":"//cdn.example/a.img?h=76"}' alt="Kept"></p><p><img src="/photos/summer.jpg" alt="Summer"></p>`),
      'https://harbour.example/gallery',
    );
    expect(imagesOf(a.markdown)).toEqual(['https://harbour.example/photos/fallback.jpg', 'https://harbour.example/photos/summer.jpg']);
  });
});

describe("a figure's caption", () => {
  it("becomes the alt of the figure's one picture when the page gave it none; the text still leaves captions out", () => {
    const a = extractArticle(
      page(
        '<figure><img src="/photos/winter.jpg" alt=""><figcaption>The harbour in winter. Photo: J. Smith</figcaption></figure>' +
          '<figure><img src="/photos/summer.jpg" alt="Summer"><figcaption>A caption beside an alt of its own</figcaption></figure>' +
          '<figure><img src="/photos/a.jpg"><img src="/photos/b.jpg"><figcaption>Two pictures, one caption</figcaption></figure>',
      ),
      'https://harbour.example/gallery',
    );
    expect(a.markdown).toContain('![The harbour in winter. Photo: J. Smith](https://harbour.example/photos/winter.jpg)');
    expect(a.markdown).toContain('![Summer](https://harbour.example/photos/summer.jpg)');
    expect(a.markdown).toContain('![](https://harbour.example/photos/a.jpg)');
    expect(a.text).not.toMatch(/caption|Photo: J\. Smith/i);
  });

  it('that its pictures do not say (an alt of their own, two pictures, a listing) stays in the Markdown and html under them, once', () => {
    const a = extractArticle(
      page(
        '<figure><img src="/photos/summer.jpg" alt="Summer"><figcaption>Figure 2: The quay at <em>high</em> tide, July.</figcaption></figure>' +
          '<figure><img src="/photos/a.jpg"><img src="/photos/b.jpg"><figcaption>Before and after the storm</figcaption></figure>' +
          '<figure><pre><code>ls -l</code></pre><figcaption>Listing 1: the harbour log</figcaption></figure>' +
          '<figure><img src="/photos/same.jpg" alt="The old lighthouse"><figcaption>The old lighthouse</figcaption></figure>',
      ),
      'https://harbour.example/gallery',
    );
    expect(a.markdown).toContain('![Summer](https://harbour.example/photos/summer.jpg)\n\nFigure 2: The quay at _high_ tide, July.\n\n');
    expect(a.markdown).toContain('![](https://harbour.example/photos/b.jpg)\n\nBefore and after the storm\n\n');
    expect(a.markdown).toContain('```\nls -l\n```\n\nListing 1: the harbour log');
    expect(a.markdown.match(/The old lighthouse/g)).toHaveLength(1);
    expect(a.html).toMatch(/<figcaption>Figure 2: The quay at <em>high<\/em> tide, July\.<\/figcaption>/);
    // The article's text still has no captions, as before.
    expect(a.text).not.toMatch(/Figure 2|the storm|Listing 1/);
  });
});
