import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { makeDirsSync } from '../main/mkdirs';
import { writeRefusedWhy } from '../main/write-refused';

// Apart from context.ts, which loads the store: sift fetch and sift extract check their --log too.

/**
 * Makes a log file (and its folders) where there is none, before anything is logged; what is
 * wrong when it cannot be written ("cannot write the log F: it is on a read-only disk"), else
 * undefined. A --log that could not be written lost every line without a word (sift fetch), or
 * failed the first file as a bug in Sift (sift extract).
 */
export function logNotWritable(file: string): string | undefined {
  try {
    makeDirsSync(path.dirname(file));
    closeSync(openSync(file, 'a'));
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = writeRefusedWhy(code);
    return `cannot write the log ${file}${why ? `: ${why}` : code ? ` (${code})` : ''}`;
  }
}
