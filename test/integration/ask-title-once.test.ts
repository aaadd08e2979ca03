/**
 * Ask this job shows each answer under its result's title. A PDF's first lines (its Markdown's
 * heading), a page's h1 and a text file's first line are that title too; through the real
 * wiring (`sift batch` fetches a real PDF, a web page and a text file from a loopback server,
 * then Ask this job asks the stored job) an answer does not say its title twice.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askJob, type JobAnswer } from '../../src/main/search';
import { textJob, type TextJob } from '../helpers/text-job';

// A two-column paper (mozilla/pdf.js test/pdfs): its title is its info title and its first
// two lines, "Trace-based Just-in-Time Type Specialization for Dynamic" / "Languages".
const PAPER = readFileSync(path.join(__dirname, '../fixtures/pdfs/tracemonkey.pdf'));
const PAPER_TITLE = 'Trace-based Just-in-Time Type Specialization for Dynamic Languages';
const REPORT = '<!doctype html><html><head><title>Annual report 2022</title></head><body><article><h1>Annual report 2022</h1><p>Revenue stayed flat; the net effect of currency moves was small.</p><p>The board met four times and reviewed the figures with the auditors.</p></article></body></html>';
// A text file's title is its first line, here the first line of its first paragraph.
const TRAIL = 'Trail notes\nThe north trail opens at dawn and closes at dusk.\n\nDogs are welcome on a lead.';

let job: TextJob;
beforeAll(async () => {
  job = await textJob(
    {
      '/paper.pdf': (_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(PAPER),
      '/report': (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(REPORT),
      '/trail': TRAIL,
    },
    (origin) => [`${origin}/paper.pdf`, `${origin}/report`, `${origin}/trail`],
  );
});
afterAll(async () => {
  await job?.close();
});

const ask = (question: string): JobAnswer[] => job.read((store, id) => askJob(store, id, question));
const from = (answers: JobAnswer[], idx: number): JobAnswer[] => answers.filter((a) => a.idx === idx);

describe('an answer under its result title', () => {
  it('from a PDF whose first lines are its title says the title once, in the heading, and answers from under it', () => {
    const [paper] = from(ask('which paper is on trace-based just-in-time type specialization for dynamic languages?'), 0);
    expect(paper?.title).toBe(PAPER_TITLE);
    // Before, the text was the title again, as the PDF wraps it: "…for Dynamic\nLanguages".
    // Its Markdown heads it with the title ("# Trace-based … Languages"), which, like a page's
    // h1, comes back with the passage under it: the abstract under its "## Abstract", opened at
    // the abstract's own first line.
    const content = job.read((store, id) => store.targetResult(id, 0)?.result?.content) ?? '';
    expect(content.split('\n')[0]).toBe(`# ${PAPER_TITLE}`);
    expect(paper?.text).toMatch(/^Abstract\nDynamic languages such as JavaScript/);
    expect(paper?.text).not.toContain('Specialization for Dynamic');
    // Its first line, "Abstract", is lent from above its line: the app finds it by the next.
    expect(paper).toMatchObject({ page: 1, lent: 1, line: content.split('\n').findIndex((l) => l.startsWith('Dynamic languages such as JavaScript')) + 1 });
    expect(paper?.line).toBeGreaterThan(1);
  });

  it('from a web page whose h1 is its title says the title once, and one past it keeps its text', () => {
    const answers = ask('which annual report is from 2022?');
    // Before, "Annual report 2022" under "Annual report 2022"; the h1 comes back with the
    // paragraph under it, which says it in the heading only.
    expect(from(answers, 1)[0]).toMatchObject({ title: 'Annual report 2022', text: 'Revenue stayed flat; the net effect of currency moves was small.', line: 3 });
    expect(from(ask('what did the board review with the auditors?'), 1)[0]?.text).toBe('The board met four times and reviewed the figures with the auditors.');
  });

  it('that starts with its title starts at the line after it, and opens there', () => {
    const [trail] = from(ask('when does the north trail open?'), 2);
    // Before, "Trail notes\nThe north trail opens…" under "Trail notes", from line 1.
    expect(trail).toMatchObject({ title: 'Trail notes', text: 'The north trail opens at dawn and closes at dusk.', line: 2 });
  });
});
