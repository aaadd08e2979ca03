import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { siftInProcess } from './cli-main';
import { startServer, type Handler, type TestServer } from './fetch-server';
import { askJob } from '../../src/main/search';
import { openStore, type Store } from '../../src/main/store';

/** One job `sift batch` stored in a SQLite file, to search and ask as the app does. */
export interface TextJob {
  /** The batch's --json lines, in the list's order. */
  results: { url: string; content?: string }[];
  /** `use` on the store, and the job's id; the store is closed after. */
  read<T>(use: (store: Store, jobId: string) => T): T;
  /**
   * The passages Ask this job answers `question` with, as a user reads them: a passage that is
   * its result's title (a text file's first line) has no text of its own and is read in the heading.
   */
  ask(question: string): string[];
  close(): Promise<void>;
}

/**
 * Plain-text pages (path → text, or path → how it answers, for a PDF or a web page) on a
 * loopback server, fetched by a real `sift batch` (in this process) into a SQLite file of its
 * own: the list is `lines` of the server's origin.
 */
export async function textJob(pages: Record<string, string | Handler>, lines: (origin: string) => string[]): Promise<TextJob> {
  const text =
    (body: string): Handler =>
    (_q, r) =>
      r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
  const srv: TestServer = await startServer(Object.fromEntries(Object.entries(pages).map(([p, body]) => [p, typeof body === 'string' ? text(body) : body])));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sift-text-job-'));
  const sift = siftInProcess(dir, { HOME: dir, XDG_DATA_HOME: dir, APPDATA: dir, SIFT_HOME: dir });
  const db = path.join(dir, 'jobs.db');
  const list = path.join(dir, 'list.txt');
  writeFileSync(list, lines(srv.origin).join('\n'));
  const r = await sift('batch', list, '--allow-private', '--db', db, '--json');
  expect(r.code, r.err).toBe(0);
  const read = <T>(use: (store: Store, jobId: string) => T): T => {
    const store = openStore(db);
    try {
      const [job] = store.listJobs();
      return use(store, job!.id);
    } finally {
      store.close();
    }
  };
  return {
    results: r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; content?: string }),
    read,
    ask: (question) => read((store, id) => askJob(store, id, question).map((p) => p.text || p.title)),
    close: async () => {
      await srv.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
