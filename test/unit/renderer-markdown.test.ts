// @vitest-environment jsdom
/**
 * The app's preview of a result's Markdown: a task list keeps each task's state. marked writes
 * its boxes as <input>s, which the sanitizer forbids, so "[x]" and "[ ]" were lost.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/renderer/src/lib/markdown';
import { extractArticle } from '../../src/main/fetch/html';

describe('renderMarkdown', () => {
  it('shows a task list\'s boxes as ☑ and ☐, and no <input>', () => {
    const html = renderMarkdown('- [x] Write the changelog\n- [ ] Tag the release\n- Plain item\n');
    expect(html).toContain('☑ Write the changelog');
    expect(html).toContain('☐ Tag the release');
    expect(html).toMatch(/<li[^>]*>Plain item<\/li>/);
    expect(html).not.toContain('<input');
  });

  it('shows footnotes as raised marks and each note under its mark, where marked read "[^1]: Smith" as a link\'s definition and the note was gone', () => {
    const html = renderMarkdown('The water rose[^1] and fell[^2].\n\n[^1]: Smith\n[^2]: In _May_.\n\n    Twice a day.\n');
    expect(html).toContain('The water rose<sup>1</sup> and fell<sup>2</sup>.');
    expect(html).toMatch(/<p[^>]*><sup>1<\/sup> Smith<\/p>/);
    expect(html).toMatch(/<p[^>]*><sup>2<\/sup> In <em>May<\/em>\.<\/p>\s*<p[^>]*>Twice a day\.<\/p>/);
    expect(html).not.toContain('[^');
    // Text that is not a note stays as written: an escaped mark, a mark inside code.
    expect(renderMarkdown('a \\[^1\\] b `[^2]`')).toContain('a [^1] b <code>[^2]</code>');
  });

  it('raises a mark only when the Markdown has its note: "[^abc]" in prose is a regex\'s class, not a footnote', () => {
    expect(renderMarkdown('Use [^abc] to match any other letter.\n')).toContain('Use [^abc] to match any other letter.');
    // A mark whose note is there is raised, beside one whose note is not.
    const html = renderMarkdown('Rose[^1] as [^a-z] says.\n\n[^1]: At the weir.\n');
    expect(html).toContain('Rose<sup>1</sup> as [^a-z] says.');
    expect(html).toMatch(/<p[^>]*><sup>1<\/sup> At the weir\.<\/p>/);
  });

  it('shows the footnotes the extractor writes for a page\'s notes with their words', () => {
    const fill = '<p>The study followed the river for three seasons, with enough words for the page to read as an article.</p>';
    const page = `<!doctype html><html><head><title>River</title></head><body><article>${fill}<p>The water rose<sup id="fnref:1"><a href="#fn:1">1</a></sup>.</p><ol><li id="fn:1"><p>Weir <a href="#fnref:1">↩</a></p></li></ol></article></body></html>`;
    const html = renderMarkdown(extractArticle(page, 'https://blog.example/river').markdown);
    expect(html).toContain('The water rose<sup>1</sup>.');
    expect(html).toMatch(/<p[^>]*><sup>1<\/sup> Weir<\/p>/);
  });

  it('still keeps out what may load or run', () => {
    const html = renderMarkdown('<iframe src="https://x.example/"></iframe><img src="https://x.example/a.png" alt="a"><script>alert(1)</script>');
    expect(html).not.toMatch(/<iframe|<script|<img/);
    expect(html).toContain('[a]');
  });
});
