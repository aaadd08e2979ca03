/**
 * A question of function words only ("и это что?", "what is it?", "これは何ですか？") names nothing
 * to look for: `sift batch` fetches a page from a loopback server with it as a list's q=, and
 * Ask this job asks the stored job. Ranked on the words it had, "и это что?" came back with the
 * passage holding "и", "это" and "что", as if it answered; "what is it?" with the one holding
 * "it is". Now no passage comes back, and each surface says to ask in words that name what is
 * wanted; a question that names something is answered as before. Given as --question, for
 * every target, it is refused before anything is fetched.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siftInProcess } from '../helpers/cli-main';
import { startServer } from '../helpers/fetch-server';
import { tempDir } from '../helpers/store';
import { textJob, type TextJob } from '../helpers/text-job';

const PAGE = [
  'Скорость бега в игре можно увеличить за счёт кодов консоли.',
  'И это что? Это работает до выхода из игры, и что важно, правки вносят каждый раз.',
  'What is it? It is the map of the old town, and it was drawn in 1820.',
  'これは何ですか？それは古い町の地図です。',
].join('\n\n');
const ASKS_NOTHING = ['и это что?', 'what is it?', 'これは何ですか？', 'the'];
const SAYS = 'The question has no word that names what to look for';
const HINT = 'Ask in words that name what you want';

interface Line {
  url: string;
  content?: string;
  meta?: { passages?: number; hint?: string };
  warnings?: string[];
}

let job: TextJob;
beforeAll(async () => {
  const pages = Object.fromEntries([...ASKS_NOTHING, 'named'].map((_, i) => [`/page-${i}.txt`, PAGE]));
  job = await textJob(pages, (origin) => [...ASKS_NOTHING, 'Как увеличить скорость бега?'].map((q, i) => `${origin}/page-${i}.txt q="${q}"`));
});
afterAll(async () => {
  await job?.close();
});

describe('a question of function words only', () => {
  it('gets no passage in a batch, and meta says to ask in words that name what is wanted', () => {
    const lines = job.results as Line[];
    for (const [i, q] of ASKS_NOTHING.entries()) {
      expect(lines[i], q).toMatchObject({ content: '', meta: { passages: 0 }, warnings: ['no_answer'] });
      expect(lines[i]!.meta!.hint, q).toMatch(new RegExp(`^${SAYS}.*\\. ${HINT}`));
    }
  });

  it('leaves a question that names something answered', () => {
    expect((job.results as Line[])[ASKS_NOTHING.length]!.content).toBe(PAGE.split('\n\n')[0]);
    expect(job.ask('Как увеличить скорость бега?')[0]).toBe(PAGE.split('\n\n')[0]);
  });

  it('is refused by Ask this job with what to ask instead', () => {
    for (const q of ASKS_NOTHING) {
      expect(() => job.ask(q), q).toThrow(expect.objectContaining({ code: 'vague_question', status: 400, message: expect.stringContaining(SAYS), hint: expect.stringContaining(HINT) }));
    }
  });

});

describe("a list line's question that asks nothing, in sift batch's plain view", () => {
  it('is said under its "(no answer)" row in the hint\'s words, and one line does not stop the list', async () => {
    const tmp = tempDir('sift-names-nothing-');
    const srv = await startServer({ '/page.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(PAGE) });
    try {
      writeFileSync(path.join(tmp.dir, 'list.txt'), `${srv.origin}/page.txt q="what is it?"\n${srv.origin}/page.txt?b q="Как увеличить скорость бега?"\n`);
      const sift = siftInProcess(tmp.dir, { SIFT_HOME: tmp.dir, HOME: tmp.dir, XDG_DATA_HOME: tmp.dir });
      const r = await sift('batch', 'list.txt', '--allow-private', '--db', path.join(tmp.dir, 'jobs.db'));
      expect(r.code, r.err).toBe(0);
      // Before, the row said "(no answer)" alone, as if the page held none.
      const rows = r.out.split('\n').filter((l) => /^\s+\d+\s{2}|^\s{7}\S/.test(l));
      expect(rows).toHaveLength(3);
      expect(rows[0]).toMatch(/^\s+1 {2}ok +0 B {2}http:\/\/127\.0\.0\.1:\d+\/page\.txt \(no answer\)$/);
      expect(rows[1]).toBe(`       ${SAYS}: words such as "what", "is" or "the" are in nearly every page. ${HINT}, e.g. when do the trains leave?`);
      expect(rows[2]).toMatch(/^\s+2 {2}ok +[\d.]+ \w?B {2}http:\/\/127\.0\.0\.1:\d+\/page\.txt\?b$/);
    } finally {
      await srv.close();
      tmp.remove();
    }
  });
});

describe('--question that asks nothing', () => {
  // Given as a flag it is every target's question: sift batch fetched each one, and each said
  // the hint. It is bad input, said before anything is fetched or stored, in the hint's words.
  it('is refused by sift batch, sift fetch and sift extract before anything is fetched, read or stored, exit 2', async () => {
    const tmp = tempDir('sift-names-nothing-');
    const srv = await startServer({ '/page.txt': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(PAGE) });
    try {
      writeFileSync(path.join(tmp.dir, 'page.txt'), PAGE);
      writeFileSync(path.join(tmp.dir, 'list.txt'), `${srv.origin}/page.txt\n${srv.origin}/page.txt?b\n`);
      const sift = siftInProcess(tmp.dir, { SIFT_HOME: tmp.dir, HOME: tmp.dir, XDG_DATA_HOME: tmp.dir });
      const db = path.join(tmp.dir, 'jobs.db');
      const runs = {
        batch: ['list.txt', '--allow-private', '--db', db, '--json'],
        // A list given by its address is not fetched either.
        'batch ': [`${srv.origin}/list.txt`, '--allow-private', '--db', db],
        fetch: [`${srv.origin}/page.txt`, '--allow-private'],
        extract: ['page.txt'],
      };
      for (const [command, args] of Object.entries(runs)) {
        for (const q of ['what is it?', 'и это что?', 'the']) {
          const r = await sift(command.trim(), ...args, '--question', q);
          expect(r.code, `${command} ${q}`).toBe(2);
          expect(r.out).toBe('');
          expect(r.err).toBe(`sift ${command.trim()}: --question "${q}": ${SAYS}: words such as "what", "is" or "the" are in nearly every page. ${HINT}, e.g. when do the trains leave?\n`);
        }
      }
      expect(srv.hits).toEqual([]);
      expect(existsSync(db)).toBe(false);
      // A question that names something is fetched and answered as before.
      const r = await sift('batch', 'list.txt', '--allow-private', '--db', db, '--json', '--question', 'Как увеличить скорость бега?');
      expect(r.code, r.err).toBe(0);
      expect(r.out.trim().split('\n').map((l) => (JSON.parse(l) as Line).content)).toEqual([PAGE.split('\n\n')[0], PAGE.split('\n\n')[0]]);
    } finally {
      await srv.close();
      tmp.remove();
    }
  });
});
