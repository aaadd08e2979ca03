/**
 * A count with its noun, as the app, the CLI and "Ask this job" write one: the noun's form for
 * the count and the count as each writes a number, from the one helper in src/shared.
 */
import { describe, expect, it } from 'vitest';
import { countWith, counted } from '../../src/shared/count';
import { counted as cliCounted } from '../../src/cli/progress';
import { askScopeNote } from '../../src/shared/search';

describe('a count with its noun', () => {
  it('is singular for one only: 0 and 2 are plural, and an irregular plural is given', () => {
    expect([0, 1, 2].map((n) => counted(n, 'target'))).toEqual(['0 targets', '1 target', '2 targets']);
    expect(counted(3, 'try', 'tries')).toBe('3 tries');
  });

  it("writes the count as its surface writes numbers: the app in the reader's locale, the CLI in en-US", () => {
    expect(counted(3000, 'URL')).toBe(`${(3000).toLocaleString()} URLs`);
    expect(cliCounted(3000, 'page')).toBe('3,000 pages');
    expect(countWith((n) => `#${n}`)(1, 'job')).toBe('#1 job');
  });

  it('"Ask this job" counts as the rest of the app does: 1,234 results, not 1234', () => {
    const scope = { read: 1234, empty: 0, failed: 1500, unfinished: 0 };
    expect(askScopeNote(scope, true)).toBe(`Read ${(1234).toLocaleString()} results of ${(2734).toLocaleString()} targets. Not read: ${(1500).toLocaleString()} failed.`);
    expect((1234).toLocaleString()).toBe('1,234');
  });
});
