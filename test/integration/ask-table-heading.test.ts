/**
 * A long table under a section heading, through the real wiring: `sift batch` fetches a
 * loopback page with two 40-row standings tables, one per season, each under its own heading
 * (a list's q= asks the question), then Ask this job asks the stored job. The table is cut
 * into pieces of about 600 characters, and only the first was read under the heading: a row in
 * a later piece said nothing of which season it is, though only the heading held the year the
 * question asked about.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../helpers/fetch-server';
import { textJob, type TextJob } from '../helpers/text-job';
import { sourceLineAt, type SourceLines } from '../../src/shared/source-lines';
import { DRIVERS, HEAD } from '../helpers/standings';

// The seasons' numbers differ, so a row says which table it is from.
const row = (name: string, i: number, season: number): string[] => [
  String(i + 1),
  name,
  String(season * 1000 + 900 - i * 37),
  String((i * 7 + season) % 5),
  String((i * 3) % 11),
  String((i * 5) % 17),
];
const cells = (tag: string, values: string[]): string => `<tr>${values.map((v) => `<${tag}>${v}</${tag}>`).join('')}</tr>`;
const table = (season: number): string =>
  `<table><thead>${cells('th', HEAD)}</thead><tbody>\n${DRIVERS.map((d, i) => cells('td', row(d, i, season))).join('\n')}\n</tbody></table>`;
const PAGE = `<!doctype html><html><head><title>Season standings</title></head><body><main><article>
<h1>Season standings</h1>
<p>Each driver's points, wins and finishes in the top five and top ten, season by season.</p>
<h2>Results of 2018</h2>
${table(1)}
<h2>Results of 2019</h2>
${table(2)}
<p>Points are awarded for each finishing position, with bonus points for leading a lap.</p>
</article></main></body></html>`;

// Driver 31 is in neither the first nor the last piece of either table; "2019" is only in its heading.
const DRIVER = DRIVERS[30]!;
const QUESTION = `How many wins did ${DRIVER} have in 2019?`;
const ROW_2019 = row(DRIVER, 30, 2);

// Driver 3 is in each table's first piece, the one that holds the header row.
const FIRST_PIECE = `How many wins did ${DRIVERS[2]!} have in 2019?`;

const standings = { '/standings': ((_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)) as Handler };
let batch: TextJob;
let whole: TextJob;
beforeAll(async () => {
  batch = await textJob(standings, (origin) => [`${origin}/standings q="${QUESTION}"`]);
  whole = await textJob(standings, (origin) => [`${origin}/standings`]);
});
afterAll(async () => {
  await batch?.close();
  await whole?.close();
});

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

/** The passage holding the 2019 row reads under the 2019 heading: the heading, then the header row and its delimiter, then rows down to that row. */
function expectUnderHeading(text: string | undefined): void {
  const lines = (text ?? '').split('\n');
  const at = lines.findIndex((l) => l.startsWith('|') && cellsOf(l).join('|') === ROW_2019.join('|'));
  expect(at, text).toBeGreaterThan(0);
  // Up from the row to the blank line (or the start) that opens its passage; the heading is right above the header row.
  let top = at;
  while (top > 0 && lines[top - 1]!.startsWith('|')) top--;
  expect(cellsOf(lines[top]!)).toEqual(HEAD);
  // The rows under the header are a later piece's, not the table's first rows.
  expect(cellsOf(lines[top + 2] ?? '')[1]).not.toBe(DRIVERS[0]);
  const heading = lines.slice(0, top).filter((l) => l.trim() !== '').at(-1) ?? '';
  expect(heading.replace(/^#+\s*/, '')).toBe('Results of 2019');
}

describe('a row of a long table under a section heading', () => {
  it('comes back under the heading over the table, in a batch', () => {
    expectUnderHeading(batch.results[0]?.content);
  });

  it('cites each line it shows, the heading too, by its line in the whole page', () => {
    const page = whole.results[0]?.content?.split('\n') ?? [];
    const result = batch.results[0] as { content?: string; meta?: { source_lines?: SourceLines } };
    const lines = result.content?.split('\n') ?? [];
    expect(lines).toContain('## Results of 2019');
    lines.forEach((line, k) => {
      const at = sourceLineAt(result.meta?.source_lines ?? [], k + 1);
      if (line === '') expect(at).toBeUndefined();
      else expect(page[(at ?? 0) - 1]).toBe(line);
    });
  });

  it('is the first answer, under the heading, in Ask this job', () => {
    const [first] = whole.ask(QUESTION);
    expectUnderHeading(first);
  });

  it("is the first answer from the table's first piece too, under the heading, and no heading comes back alone, in Ask this job", () => {
    const answers = whole.ask(FIRST_PIECE);
    // Before, the 2018 table's first rows, with no heading, then the heading "Results of 2019" alone.
    const lines = answers[0]?.split('\n') ?? [];
    expect(lines[0], answers[0]).toBe('Results of 2019');
    expect(cellsOf(lines[1] ?? '')).toEqual(HEAD);
    expect(lines.map((l) => cellsOf(l).join('|'))).toContain(row(DRIVERS[2]!, 2, 2).join('|'));
    for (const a of answers) expect(a.split('\n').length, a).toBeGreaterThan(1);
  });
});
