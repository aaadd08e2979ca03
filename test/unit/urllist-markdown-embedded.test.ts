/**
 * A Markdown list's HTML: the pictures its tags show are not pages to read, its links are.
 * READMEs (sindresorhus/awesome's among them, shared/corpora/url-lists/markdown) put logos and
 * banners in <img>/<picture> blocks between their links.
 */
import { describe, expect, it } from 'vitest';
import { parseList } from '../../src/shared/urllist';

describe("a Markdown list's HTML blocks", () => {
  it('take the link of a sponsor block and leave out its logo in every size and scheme', () => {
    // As the awesome readme writes its sponsors: a <picture> of two <source srcset>s and an <img src> inside an <a href>.
    const md = [
      '# Awesome',
      '<a href="https://depot.dev/?utm_source=github">',
      '\t<picture>',
      '\t\t<source width="180" media="(prefers-color-scheme: dark)" srcset="https://cdn.example/depot-dark.svg">',
      "\t\t<source media=\"(prefers-color-scheme: light)\" srcset='https://cdn.example/depot-light.svg 1x, https://cdn.example/depot-light@2x.svg 2x'>",
      '\t\t<img width="180" src="https://cdn.example/depot-light.svg" alt="Depot logo">',
      '\t</picture>',
      '</a>',
      '<img src=https://cdn.example/banner.svg>',
      '<video poster="https://cdn.example/still.jpg" data-src="https://cdn.example/clip.mp4"></video>',
      '- [Node.js](https://github.com/sindresorhus/awesome-nodejs) and https://nodejs.org/en/docs',
    ].join('\n');
    const r = parseList(md, { filename: 'readme.md' });
    expect(r.targets.map((t) => t.url)).toEqual(['https://depot.dev/?utm_source=github', 'https://github.com/sindresorhus/awesome-nodejs', 'https://nodejs.org/en/docs']);
    expect(r.invalid).toEqual([]);
    expect(r.duplicates).toEqual([]);
  });

  it('still reads a URL that only mentions src= in its query or follows one in prose', () => {
    const md = 'See https://example.org/search?src=feed and the src= attribute: https://example.org/img-guide\n';
    expect(parseList(md, { filename: 'notes.md' }).targets.map((t) => t.url)).toEqual(['https://example.org/search?src=feed', 'https://example.org/img-guide']);
  });
});
