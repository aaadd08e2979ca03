import path from 'node:path';
import pino from 'pino';
import { makeDirsSync } from '../mkdirs';

/**
 * JSON log lines (pino) to the data folder's sift.log and, for the CLI's --log, to one more
 * file. Lines from the runner and the batch wiring carry the caller and the job id, never a
 * target URL or host name: a log must not leak someone's reading list.
 */
export type Log = pino.Logger;

export function createLog(files: string[], level: pino.Level = 'info'): Log {
  const streams = files.map((file) => {
    makeDirsSync(path.dirname(file));
    // sync: a CLI process may exit right after its last line; the volume is a few lines
    // per job, so synchronous appends cost nothing measurable.
    return { level, stream: pino.destination({ dest: file, append: true, sync: true }) };
  });
  if (streams.length === 0) return pino({ level: 'silent' });
  return pino({ level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, pino.multistream(streams));
}

/** A logger that drops everything (tests that don't look at logs). */
export const silentLog = (): Log => pino({ level: 'silent' });
