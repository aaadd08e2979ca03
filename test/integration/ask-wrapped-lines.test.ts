/**
 * Text whose lines are wrapped inside its sentences, through the real wiring: `sift batch`
 * fetches a real two-column paper (a PDF, each of its printed lines a line of text) and a plain
 * text file wrapped at 68 columns from a loopback server, a list's q= asking the question, and
 * Ask this job asks the stored job. A long paragraph is cut into passages of about 600
 * characters at its sentences' ends, and every line end was read as one: nearly every passage
 * began or ended mid-sentence, at a line end between two words ("… we must guard on it after" |
 * "the call, and side exit if the property does not hold").
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

const PAPER = readFileSync(path.join(__dirname, '../fixtures/pdfs/tracemonkey.pdf'));

// Sentences that go on over several lines; each paragraph is some 1,900 characters.
const SENTENCE = (n: number): string =>
  `The harbour pilot number ${n} boards each incoming vessel at the outer buoy, checks the ` +
  `draught against the tide table, and brings the ship along the dredged channel to its berth ` +
  `while the tugs stand by on the western side of the basin.`;
const paragraph = (from: number): string => Array.from({ length: 8 }, (_, k) => SENTENCE(from + k)).join(' ');
/** Words filled into lines of at most `width` characters, as a plain text file is wrapped. */
function wrapped(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}
const NOTES = `Harbour notes\n\n${[1, 11, 21].map((n) => wrapped(paragraph(n), 68)).join('\n\n')}\n`;

const PAPER_Q = 'what happens when the inner tree takes a side exit?';
const NOTES_Q = 'when does harbour pilot number 15 board?';

const pages = {
  '/paper.pdf': ((_q, r) => r.writeHead(200, { 'content-type': 'application/pdf' }).end(PAPER)) as Parameters<typeof textJob>[0][string],
  '/notes.txt': NOTES,
};
let asked: TextJob;
let whole: TextJob;
beforeAll(async () => {
  asked = await textJob(pages, (origin) => [`${origin}/paper.pdf q="${PAPER_Q}"`, `${origin}/notes.txt q="${NOTES_Q}"`]);
  whole = await textJob(pages, (origin) => [`${origin}/paper.pdf`, `${origin}/notes.txt`]);
});
afterAll(async () => {
  await asked?.close();
  await whole?.close();
});

/** A line end between two words of a sentence: a word (or a comma) then a word in lower case. */
const WRAP = /[\p{L}\p{N},]\n\p{Ll}/u;

/** Each passage of `answer` starts and ends where its sentence does, not at a line end inside one, in `text`. */
function expectWholeSentences(answer: string[], text: string): void {
  expect(answer.length).toBeGreaterThan(0);
  for (const passage of answer) {
    const at = text.indexOf(passage);
    expect(at, passage).toBeGreaterThanOrEqual(0);
    const end = at + passage.length;
    expect(WRAP.test(text.slice(Math.max(0, at - 2), at + 2)), `starts mid-sentence: ${passage}`).toBe(false);
    expect(WRAP.test(text.slice(end - 2, end + 2)), `ends mid-sentence: ${passage}`).toBe(false);
  }
}

describe('passages of text wrapped inside its sentences', () => {
  it('start and end with a sentence, in a batch, from a PDF and from a plain text file', () => {
    for (const k of [0, 1]) {
      const content = asked.results[k]?.content ?? '';
      expectWholeSentences(content.split('\n\n'), whole.results[k]?.content ?? '');
    }
    // The one that answers holds its sentence whole.
    expect(asked.results[1]?.content?.replace(/\n/g, ' ')).toContain(SENTENCE(15));
  });

  it('start and end with a sentence, in Ask this job', () => {
    const text = whole.results.map((r) => r.content ?? '').join('\n\n');
    expectWholeSentences(whole.ask(PAPER_Q), text);
    const notes = whole.ask(NOTES_Q);
    expectWholeSentences(notes, text);
    expect(notes[0]?.replace(/\n/g, ' ')).toContain(SENTENCE(15));
  });
});
