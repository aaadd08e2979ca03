/**
 * A long table through the real wiring: `sift batch` fetches a loopback HTML page of 40
 * drivers' standings (a list's q= asks the question), then Ask this job asks the stored job.
 * The table is cut at row ends into passages of about 600 characters, and only the first held
 * the header row: a row came back without saying which number is the wins, and a question
 * holding a header word ("points") was answered by the first rows, which held that word.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../helpers/fetch-server';
import { textJob, type TextJob } from '../helpers/text-job';
import { sourceLineAt, type SourceLines } from '../../src/shared/source-lines';
import { DRIVERS, HEAD } from '../helpers/standings';

const row = (name: string, i: number): string[] => [String(i + 1), name, String(2400 - i * 37), String((i * 7) % 5), String((i * 3) % 11), String((i * 5) % 17)];

const cells = (tag: string, values: string[]): string => `<tr>${values.map((v) => `<${tag}>${v}</${tag}>`).join('')}</tr>`;
const PAGE = `<!doctype html><html><head><title>Season standings</title></head><body><main><article>
<h1>Season standings</h1>
<p>The standings after the season's last race, with each driver's points, wins and finishes in the top five and top ten.</p>
<table><thead>${cells('th', HEAD)}</thead><tbody>
${DRIVERS.map((d, i) => cells('td', row(d, i))).join('\n')}
</tbody></table>
<p>Points are awarded for each finishing position, with bonus points for leading a lap.</p>
</article></main></body></html>`;

// Driver 31 is in neither the first nor the last passage of the table.
const WINS = `How many wins did ${DRIVERS[30]!} have?`;
// Driver 23 too; "points" is in the header row.
const POINTS = `How many points does ${DRIVERS[22]!} have?`;

const standings = { '/standings': ((_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE)) as Handler };
// The batch asks each question of the page; Ask this job asks a job that holds the whole page.
let batch: TextJob;
let whole: TextJob;
beforeAll(async () => {
  batch = await textJob(standings, (origin) => [`${origin}/standings q="${WINS}"`, `${origin}/standings q="${POINTS}"`, `${origin}/standings q="${WINS}" context=true`]);
  whole = await textJob(standings, (origin) => [`${origin}/standings`]);
});
afterAll(async () => {
  await batch?.close();
  await whole?.close();
});

/** The lines of a Markdown table, each as its cells. */
const tableRows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((l) => l.trim().startsWith('|'))
    .map((l) =>
      l
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    );

/** The answer reads as a table: the header row, its delimiter, then rows holding `driver` and none of the table's first rows. */
function expectHeaderOverRow(text: string | undefined, driver: string): void {
  const rows = tableRows(text ?? '');
  expect(rows[0]).toEqual(HEAD);
  expect(rows[1]?.every((c) => /^:?-+:?$/.test(c))).toBe(true);
  expect(rows.slice(2).some((r) => r[1] === driver)).toBe(true);
  // The first rows, which held the header, are not the answer.
  expect(rows.some((r) => r[1] === DRIVERS[0])).toBe(false);
}

describe('a question answered by a row of a long table', () => {
  it('comes back with the header row above that row, in a batch', () => {
    expectHeaderOverRow(batch.results[0]?.content, DRIVERS[30]!);
  });

  it('asking about a header word comes back with the row, not the first rows that hold the header, in a batch', () => {
    expectHeaderOverRow(batch.results[1]?.content, DRIVERS[22]!);
  });

  it('with context, shows the pieces around it as one table: the header row once, the rows in order, in a batch', () => {
    const content = batch.results[2]?.content ?? '';
    // Before, each piece under the header row again, after a blank line: three tables.
    const rows = tableRows(content);
    expect(rows.filter((r) => r.join('|') === HEAD.join('|')), content).toHaveLength(1);
    expectHeaderOverRow(content, DRIVERS[30]!);
    const names = rows.slice(2).map((r) => r[1]);
    const from = DRIVERS.indexOf(names[0]!);
    // More rows than the piece that answers alone: its neighbours too.
    expect(names.length).toBeGreaterThan(tableRows(batch.results[0]?.content ?? '').length - 2);
    expect(names).toEqual(DRIVERS.slice(from, from + names.length));
    expect(content).not.toMatch(/\|\n\s*\n\|/);
  });

  it('cites each line it shows, the header row too, by its line in the whole page', () => {
    const page = whole.results[0]?.content?.split('\n') ?? [];
    for (const result of batch.results) {
      const sourceLines = (result as { meta?: { source_lines?: SourceLines } }).meta?.source_lines ?? [];
      const lines = result.content?.split('\n') ?? [];
      expect(lines.length).toBeGreaterThan(2);
      lines.forEach((line, k) => {
        const at = sourceLineAt(sourceLines, k + 1);
        if (line === '') expect(at).toBeUndefined();
        else expect(page[(at ?? 0) - 1]).toBe(line);
      });
    }
  });

  it('comes back with the header row above that row, in Ask this job', () => {
    const [first] = whole.ask(WINS);
    expectHeaderOverRow(first, DRIVERS[30]!);
    const [best] = whole.ask(POINTS);
    expectHeaderOverRow(best, DRIVERS[22]!);
  });
});
