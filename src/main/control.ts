import { readdirSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from './batch';
import { makeDirsSync } from './mkdirs';

/**
 * Requests to the process that owns a database. The owner holds SQLite's exclusive lock
 * for its whole life, so `sift cancel ID` from another terminal cannot open the database;
 * it drops a request file in a folder beside it instead, and the owner answers within a
 * poll (500 ms: a cancel a person typed can wait that long; a readdir costs microseconds).
 */
export const controlDir = (dbPath: string): string => `${dbPath}.control`;

const ID = /^[0-9a-zA-Z_-]{1,64}$/;

export type CancelAnswer = 'cancelled' | 'not_running';

export function watchControl(dbPath: string, cancel: (id: string) => boolean, log: Logger, everyMs = 500): () => void {
  const dir = controlDir(dbPath);
  const tick = (): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // no requests yet
    }
    for (const name of names) {
      const m = /^cancel-(.+)\.req$/.exec(name);
      if (!m || !ID.test(m[1]!)) continue;
      const id = m[1]!;
      const answer: CancelAnswer = cancel(id) ? 'cancelled' : 'not_running';
      try {
        writeFileSync(path.join(dir, `cancel-${id}.tmp`), answer);
        renameSync(path.join(dir, `cancel-${id}.tmp`), path.join(dir, `cancel-${id}.ans`));
        rmSync(path.join(dir, name), { force: true });
      } catch (err) {
        log.warn({ jobId: id, err: err instanceof Error ? err.name : typeof err }, 'could not answer a cancel request');
      }
      log.info({ jobId: id, answer }, 'cancel requested by another process');
    }
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Asks the owner of dbPath to cancel job id; undefined when no answer came in time. */
export async function requestCancel(dbPath: string, id: string, timeoutMs = 5000): Promise<CancelAnswer | undefined> {
  if (!ID.test(id)) return 'not_running';
  const dir = controlDir(dbPath);
  makeDirsSync(dir);
  const ans = path.join(dir, `cancel-${id}.ans`);
  const req = path.join(dir, `cancel-${id}.req`);
  rmSync(ans, { force: true });
  writeFileSync(req, String(process.pid));
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    await sleep(50);
    try {
      const answer = readFileSync(ans, 'utf8') as CancelAnswer;
      rmSync(ans, { force: true });
      return answer;
    } catch {}
  }
  rmSync(req, { force: true });
  return undefined;
}
