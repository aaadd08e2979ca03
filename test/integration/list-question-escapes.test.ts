/**
 * A list line's question written as a URL's query writes one (`q=who%20counted%20the%20crates`,
 * copied from an address, or typed so since a space ends an unquoted value) asks the words it
 * encodes. Read as written it was stored with its escapes: the question's words were
 * `20counted` and `20crates`, the page that answers it came back "no_answer", and the export's
 * "Asked with" repeated the escapes. The real `sift batch` runs the list against a loopback
 * server; a URL's own escapes stay as they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

const DOCK = 'Dock log\n\nThe tide came in early on Tuesday and the pier flooded.\n\nMara counted the crates twice before the ship left.\n\nThe gulls took the bread from the stern.';

let job: TextJob;
beforeAll(async () => {
  job = await textJob({ '/dock': DOCK, '/dock%20log': DOCK }, (origin) => [
    `${origin}/dock q=who%20counted%20the%20crates`,
    `${origin}/dock%20log question=who+counted+the+crates%3F`,
    `${origin}/dock q="who%20counted"`,
  ]);
});
afterAll(async () => {
  await job?.close();
});

type Stored = { url: string; question: string | undefined; warnings: unknown };
const stored = (): Stored[] =>
  job.read((store, id) =>
    store.targetRows(id).map((t) => {
      const result = store.targetResult(id, t.idx)?.result;
      return { url: t.url, question: t.options?.question, warnings: result?.meta?.warnings };
    }),
  );

describe('a question written as a URL query writes one', () => {
  it('is asked as its words, and its answer comes back', () => {
    const [escaped, form] = job.results;
    expect(escaped?.content).toContain('Mara counted the crates twice');
    expect(escaped?.content).not.toContain('gulls');
    expect(form?.content).toContain('Mara counted the crates twice');
    const [a, b] = stored();
    expect(a?.question).toBe('who counted the crates');
    expect(b?.question).toBe('who counted the crates?');
    expect(a?.warnings ?? []).not.toContain('no_answer');
  });

  it("keeps the URL's own escapes, and a quoted question as written", () => {
    const [, b, c] = stored();
    expect(b?.url).toMatch(/\/dock%20log$/);
    expect(c?.question).toBe('who%20counted');
  });
});
