/**
 * A list line's question with "+" for its spaces, as a web form's query writes them
 * (`q=who+counted+the+crates`), is read as written: a list line quotes a value with spaces, and
 * "+" is part of C++ and Ctrl+Alt+Del. It was one word no passage held, and came back "no answer"
 * with nothing said. `sift batch` on a loopback server: the question stays as typed, and meta.hint
 * says how to ask it with spaces; a question that is answered, or a "+" that is a word's own, gets
 * no such hint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

const PAGE = ['Harbour log', 'The crates were counted on the dock by the night watch.', 'C++ and Ctrl+Alt+Del are written in the manual.'].join('\n\n');
const QUESTIONS = ['who+counted+the+crates', 'counted crates', 'C++', 'Ctrl+Alt+Del', 'weather+tomorrow', '1+1'];

interface Line {
  content?: string;
  meta?: { passages?: number; hint?: string };
  warnings?: string[];
}

let job: TextJob;
let lines: Line[];
beforeAll(async () => {
  job = await textJob({ '/page.txt': PAGE }, (origin) => QUESTIONS.map((q, i) => `${origin}/page.txt?n=${i} q=${/\s/.test(q) ? `"${q}"` : q}`));
  lines = job.results as Line[];
});
afterAll(async () => {
  await job?.close();
});

describe('a question whose words "+" joins', () => {
  it('is asked as written, and when nothing holds it the hint says to ask with spaces', () => {
    expect(lines[0]).toMatchObject({ content: '', meta: { passages: 0 }, warnings: ['no_answer'] });
    expect(lines[0]!.meta!.hint).toBe('No passage holds "who+counted+the+crates" as one word: a "+" is read as itself, not as a space. Ask with spaces, "who counted the crates" (q="who counted the crates" on a list line).');
    expect(lines[4]!.meta!.hint).toContain('"weather tomorrow"');
  });

  it('asked with the spaces the hint gives, is answered', () => {
    expect(lines[1]!.content).toBe('The crates were counted on the dock by the night watch.');
  });

  it('leaves a "+" that is part of a word, or arithmetic, without the hint', () => {
    expect(lines[2]!.content).toContain('C++');
    expect(lines[3]!.content).toContain('Ctrl+Alt+Del');
    expect(lines[5]).toMatchObject({ warnings: ['no_answer'] });
    for (const i of [2, 3, 5]) expect(lines[i]!.meta?.hint, QUESTIONS[i]).toBeUndefined();
  });
});
