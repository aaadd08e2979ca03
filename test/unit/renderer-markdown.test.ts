// @vitest-environment jsdom
/**
 * The app's preview of a result's Markdown: a task list keeps each task's state. marked writes
 * its boxes as <input>s, which the sanitizer forbids, so "[x]" and "[ ]" were lost.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/renderer/src/lib/markdown';

describe('renderMarkdown', () => {
  it('shows a task list\'s boxes as ☑ and ☐, and no <input>', () => {
    const html = renderMarkdown('- [x] Write the changelog\n- [ ] Tag the release\n- Plain item\n');
    expect(html).toContain('☑ Write the changelog');
    expect(html).toContain('☐ Tag the release');
    expect(html).toMatch(/<li[^>]*>Plain item<\/li>/);
    expect(html).not.toContain('<input');
  });

  it('still keeps out what may load or run', () => {
    const html = renderMarkdown('<iframe src="https://x.example/"></iframe><img src="https://x.example/a.png" alt="a"><script>alert(1)</script>');
    expect(html).not.toMatch(/<iframe|<script|<img/);
    expect(html).toContain('[a]');
  });
});
