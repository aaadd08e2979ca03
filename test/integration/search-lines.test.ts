/**
 * A search hit in a result that keeps some lines of a document (grep, question) is cited by
 * the line a reader finds in the document, not by its line in grep's output: `sift batch`
 * against a loopback server fills a database, `sift search` and Ask this job read it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { siftInProcess } from '../helpers/cli-main';
import { startServer, type TestServer } from '../helpers/fetch-server';
import { askJob } from '../../src/main/search';
import { openStore } from '../../src/main/store';

// A server's log: line 57 and line 143 hold the errors; everything else is routine.
const LOG = Array.from({ length: 200 }, (_, i) => {
  const n = i + 1;
  if (n === 57) return `${n} ERROR disk quota exceeded on the archive volume`;
  if (n === 143) return `${n} ERROR replication lagged behind the primary by ninety seconds`;
  return `${n} INFO request served in ${(n * 7) % 90} ms`;
}).join('\n');

let srv: TestServer;
let dir: string;
let db: string;
let sift: ReturnType<typeof siftInProcess>;

beforeAll(async () => {
  srv = await startServer({ '/server.log': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(LOG) });
  dir = mkdtempSync(path.join(os.tmpdir(), 'sift-search-lines-'));
  sift = siftInProcess(dir, { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir, SIFT_HOME: dir });
  db = path.join(dir, 'jobs.db');
  const list = path.join(dir, 'list.txt');
  writeFileSync(list, [`${srv.origin}/server.log grep=ERROR`, `${srv.origin}/server.log grep=ERROR context`, `${srv.origin}/server.log q="what lagged behind the primary?"`, `${srv.origin}/server.log`].join('\n'));
  const r = await sift('batch', list, '--allow-private', '--db', db, '--json');
  expect(r.code, r.err).toBe(0);
});
afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Hit {
  idx: number;
  line?: number;
  sourceLine?: number;
}

describe('a hit in a result of some lines of a document', () => {
  it("cites the document's line (143), with the line of the stored lines the app opens at", async () => {
    const r = await sift('search', 'replication', '--db', db, '--json');
    const hits = r.out.trim().split('\n').map((l) => JSON.parse(l) as Hit).sort((a, b) => a.idx - b.idx);
    // grep alone keeps lines 57 and 143: the hit is the second line stored. With context,
    // 55-59, "--", 141-145: the seventh line plus the "--". A question's passage, and the whole log.
    expect(hits.map((h) => [h.idx, h.line, h.sourceLine])).toEqual([
      [0, 2, 143],
      [1, 9, 143],
      [2, expect.any(Number), 143],
      [3, 143, undefined],
    ]);
  });

  it('says in text which line that is', async () => {
    const r = await sift('search', 'quota', '--db', db, '--limit', '4');
    expect(r.code, r.err).toBe(0);
    expect(r.out.match(/line \d+ of the document/g)).toEqual(['line 57 of the document', 'line 57 of the document']);
    expect(r.out).toMatch(/#4 · line 57 ·/);
  });

  it("Ask this job cites a passage by the document's line too", () => {
    const store = openStore(db);
    try {
      const [job] = store.listJobs();
      const passages = askJob(store, job!.id, 'what lagged behind the primary?');
      const fromGrep = passages.find((p) => p.idx === 0);
      // The grep's two lines are one passage, which starts on the document's line 57.
      expect(fromGrep).toMatchObject({ line: 1, sourceLine: 57 });
    } finally {
      store.close();
    }
  });
});
