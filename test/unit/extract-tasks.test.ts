/**
 * A task list's check boxes: Readability removes every <input>, so whether a task was done
 * was lost ("- Write the changelog").
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';

const FILL = 'The plan for the release lists what is done and what is left, so the team sees where things stand before the freeze.';
const PAGE = `<!doctype html><html><head><title>Plan</title></head><body><main><article><h1>Plan</h1><p>${FILL}</p>
<ul class="contains-task-list"><li class="task-list-item"><input type="checkbox" disabled checked> Write the changelog</li>
<li class="task-list-item"><input type="checkbox" disabled>Tag the release</li><li>Plain item</li><li><INPUT TYPE="CHECKBOX" CHECKED> Shout</li><li><input type="text"> Typed</li></ul><p>${FILL}</p>
<form><input type="checkbox" name="subscribe"> Subscribe</form></article></main></body></html>`;

describe('a task list', () => {
  const a = extractArticle(PAGE, 'https://team.example/plan');

  it('is a GFM task list in Markdown, one blank after each box', () => {
    expect(a.markdown).toMatch(/^- {3}\[x\] Write the changelog$/m);
    expect(a.markdown).toMatch(/^- {3}\[ \] Tag the release$/m);
    expect(a.markdown).toMatch(/^- {3}Plain item$/m);
    // The type's value is case-blind; a text field is no box (it goes, as every <input> does).
    expect(a.markdown).toMatch(/^- {3}\[x\] Shout$/m);
    expect(a.markdown).toMatch(/^- {3}Typed$/m);
  });

  it('shows each box as ☑ or ☐ in text, and in html as a box that says its state', () => {
    // The box is the item's marker; an item without one has the list's bullet.
    expect(a.text).toContain('☑ Write the changelog\n☐Tag the release\n• Plain item');
    expect(a.html).toContain('<span aria-checked="true" role="checkbox">☑</span> Write the changelog');
  });

  it('leaves a check box outside a list alone (a form, which goes)', () => {
    expect(a.text).not.toContain('Subscribe');
  });
});
