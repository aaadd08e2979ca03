/**
 * A contents page is no answer: `sift batch` fetches the text of a real manual's two contents
 * pages and the section they point to (the zh-cn Debian Edu manual, as Sift reads its PDF) from
 * a loopback server, a list's q= asking the question, and Ask this job asks the stored job.
 * "如何安装 Debian Edu？" (how to install Debian Edu?) was answered first by the contents line
 * "6.3 安装 Debian Edu . . . . . 8": short and holding every word asked, it outranked the
 * section's prose.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

const MANUAL = readFileSync(path.join(__dirname, '../fixtures/pdfs/debian-edu-zh-cn.pages-2-3-15.txt'), 'utf8');
const QUESTION = '如何安装 Debian Edu？';
/** The section's first sentence, which answers. */
const PROSE = '在你安装 Debian Edu 时，你有一些要选择的选项。';
/** A contents line: a title, dot leaders, a page number. */
const CONTENTS = /(?:\. ?){8}\s*\d+$/m;

let asked: TextJob;
let whole: TextJob;
beforeAll(async () => {
  asked = await textJob({ '/manual.txt': MANUAL }, (origin) => [`${origin}/manual.txt q="${QUESTION}"`]);
  whole = await textJob({ '/manual.txt': MANUAL }, (origin) => [`${origin}/manual.txt`]);
});
afterAll(async () => {
  await asked?.close();
  await whole?.close();
});

describe('a contents page', () => {
  it('comes after the prose it points to, in a batch', () => {
    const passages = (asked.results[0]?.content ?? '').split('\n\n');
    expect(passages[0]).not.toMatch(CONTENTS);
    expect(passages.slice(0, 2).join('\n')).toContain(PROSE);
  });

  it('comes after the prose it points to, in Ask this job', () => {
    const passages = whole.ask(QUESTION);
    expect(passages[0]).not.toMatch(CONTENTS);
    expect(passages[0]).toContain(PROSE);
  });
});
