// @vitest-environment jsdom
/**
 * The app's preview of a result's Markdown: a task list keeps each task's state. marked writes
 * its boxes as <input>s, which the sanitizer forbids, so "[x]" and "[ ]" were lost.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/renderer/src/lib/markdown';
import { extractArticle } from '../../src/main/fetch/html';
import { readFeed } from '../../src/main/fetch/feed';

/** A raised mark as the preview writes it: a link to its note, the first of a note's marks the one its note links back to. */
const cite = (label: string, first = true): string =>
  `<sup><a href="#sift-note-${label}"${first ? ` id="sift-cite-${label}"` : ''} aria-label="Note ${label}">${label}</a></sup>`;
/** A note's mark: a link back to where the note is first cited. */
const noteMark = (label: string): string => `<sup><a href="#sift-cite-${label}" id="sift-note-${label}" aria-label="Back to where note ${label} is cited">${label}</a></sup>`;

describe('renderMarkdown', () => {
  it("shows a PDF's own < and & as written: a manual's <hostname> was taken as a tag and went, &copy; showed ©", () => {
    const md = '## Setup\n\nRun ssh <hostname> and read the file </etc/hosts> (&copy; 2009).\n\nA \\<mlk> escaped.\n';
    const html = renderMarkdown(md, { pdf: true });
    expect(html).toMatch(/<h2[^>]*>Setup<\/h2>/);
    expect(html).toContain('Run ssh &lt;hostname&gt; and read the file &lt;/etc/hosts&gt; (&amp;copy; 2009).');
    expect(html).toContain('A &lt;mlk&gt; escaped.');
    // A page's Markdown keeps its writer's inline HTML, as before.
    expect(renderMarkdown('Run ssh <hostname> now.')).not.toContain('hostname');
  });

  it('shows a task list\'s boxes as ☑ and ☐, and no <input>', () => {
    const html = renderMarkdown('- [x] Write the changelog\n- [ ] Tag the release\n- Plain item\n');
    expect(html).toContain('☑ Write the changelog');
    expect(html).toContain('☐ Tag the release');
    expect(html).toMatch(/<li[^>]*>Plain item<\/li>/);
    expect(html).not.toContain('<input');
  });

  it('shows footnotes as raised marks and each note under its mark, where marked read "[^1]: Smith" as a link\'s definition and the note was gone', () => {
    const html = renderMarkdown('The water rose[^1] and fell[^2].\n\n[^1]: Smith\n[^2]: In _May_.\n\n    Twice a day.\n');
    expect(html).toContain(`The water rose${cite('1')} and fell${cite('2')}.`);
    expect(html).toMatch(new RegExp(`<p[^>]*>${noteMark('1')} Smith</p>`));
    expect(html).toMatch(new RegExp(`<p[^>]*>${noteMark('2')} In <em>May</em>\\.</p>\\s*<p[^>]*>Twice a day\\.</p>`));
    expect(html).not.toContain('[^');
    // Text that is not a note stays as written: an escaped mark, a mark inside code.
    expect(renderMarkdown('a \\[^1\\] b `[^2]`')).toContain('a [^1] b <code>[^2]</code>');
  });

  it('raises a mark only when the Markdown has its note: "[^abc]" in prose is a regex\'s class, not a footnote', () => {
    expect(renderMarkdown('Use [^abc] to match any other letter.\n')).toContain('Use [^abc] to match any other letter.');
    // A mark whose note is there is raised, beside one whose note is not.
    const html = renderMarkdown('Rose[^1] as [^a-z] says.\n\n[^1]: At the weir.\n');
    expect(html).toContain(`Rose${cite('1')} as [^a-z] says.`);
    expect(html).toContain(`${noteMark('1')} At the weir.</p>`);
  });

  it('shows the footnotes the extractor writes for a page\'s notes with their words', () => {
    const fill = '<p>The study followed the river for three seasons, with enough words for the page to read as an article.</p>';
    const page = `<!doctype html><html><head><title>River</title></head><body><article>${fill}<p>The water rose<sup id="fnref:1"><a href="#fn:1">1</a></sup>.</p><ol><li id="fn:1"><p>Weir <a href="#fnref:1">↩</a></p></li></ol></article></body></html>`;
    const html = renderMarkdown(extractArticle(page, 'https://blog.example/river').markdown);
    expect(html).toContain(`The water rose${cite('1')}.`);
    expect(html).toContain(`${noteMark('1')} Weir</p>`);
  });

  it('links a mark to its note and the note back to its first mark, with names that say where each leads', () => {
    const html = renderMarkdown('Rose[^1] and rose[^1] at the weir[^a"b].\n\n[^1]: At the weir.\n[^a"b]: Quoted.\n');
    expect(html).toContain(`Rose${cite('1')} and rose${cite('1', false)} at the weir`);
    // A label's quote stays inside its attributes.
    expect(html).toContain('<a href="#sift-note-a%22b" id="sift-cite-a&quot;b" aria-label="Note a&quot;b">a"b</a>');
    expect(html).toContain('<a href="#sift-cite-a%22b" id="sift-note-a&quot;b" aria-label="Back to where note a&quot;b is cited">a"b</a>');
    // The next result's marks are first marks again.
    expect(renderMarkdown('Again[^1].\n\n[^1]: Note.\n')).toContain(`Again${cite('1')}.`);
  });

  it("shows a feed's notes by their number in their post, each mark and note linked to its own post's", () => {
    // kramdown's notes in two posts, each "1" with the same ids, as a blog's feed carries them.
    const post = (n: number): string =>
      `<item><title>Post ${n}</title><link>https://blog.example/p${n}</link><description><![CDATA[<p>Claim ${n}<sup id="fnref:1"><a href="#fn:1">1</a></sup> here.</p>` +
      `<ol><li id="fn:1"><p>Note of post ${n}. <a href="#fnref:1">↩</a></p></li></ol>]]></description></item>`;
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><link>https://blog.example/</link>${post(1)}${post(2)}</channel></rss>`;
    const read = readFeed({ xml: rss, format: 'rss' }, 'markdown', 'https://blog.example/feed.xml');
    const html = renderMarkdown(read.content, { feed: typeof read.meta['feed'] === 'string' });
    // Shown as "2-1", a label the post's own page never showed; the ids and names stay the post's own.
    const feedCite = (post: number): string =>
      `<sup><a href="#sift-note-${post}-1" id="sift-cite-${post}-1" aria-label="Note 1 of post ${post}">1</a></sup>`;
    const feedNote = (post: number): string =>
      `<sup><a href="#sift-cite-${post}-1" id="sift-note-${post}-1" aria-label="Back to where note 1 of post ${post} is cited">1</a></sup>`;
    for (const n of [1, 2]) {
      expect(html).toContain(`Claim ${n}${feedCite(n)} here.`);
      expect(html).toContain(`${feedNote(n)} Note of post ${n}.</p>`);
    }
    expect(html).not.toMatch(/>\d+-\d+</);
  });

  it('shows a book\'s chapter-style labels ("1-1", "2-1") as the page shows them, where they read as notes of posts 1 and 2', () => {
    const chapter = (n: number): string =>
      `<h2>Chapter ${n}</h2><p>Claim ${n}<sup><a href="#fn${n}-1">${n}-1</a></sup> here.</p><ol><li id="fn${n}-1"><p>Note ${n}-1 of the book.</p></li></ol>`;
    const page = `<!doctype html><html><head><title>A book</title></head><body><article><h1>A book</h1>${chapter(1)}${chapter(2)}</article></body></html>`;
    const html = renderMarkdown(extractArticle(page, 'https://book.example/all').markdown);
    for (const n of [1, 2]) {
      expect(html).toContain(`Claim ${n}${cite(`${n}-1`)} here.`);
      expect(html).toContain(`${noteMark(`${n}-1`)} Note ${n}-1 of the book.</p>`);
    }
  });

  it('shows a label written with a dash as written where not every note is a post\'s', () => {
    const html = renderMarkdown('Rose[^2-1] and fell[^b].\n\n[^2-1]: Up.\n[^b]: Down.\n');
    expect(html).toContain(`Rose${cite('2-1')} and fell${cite('b')}.`);
    expect(html).toContain(`${noteMark('2-1')} Up.</p>`);
  });

  it('still keeps out what may load or run', () => {
    const html = renderMarkdown('<iframe src="https://x.example/"></iframe><img src="https://x.example/a.png" alt="a"><script>alert(1)</script>');
    expect(html).not.toMatch(/<iframe|<script|<img/);
    expect(html).toContain('[a]');
  });
});
