/**
 * src/main/index.ts started on a damaged database (a disk error, a copy cut short): the box it
 * shows names the file and says what to do in the app, where there is no --db to pass.
 */
import { afterAll, expect, test, vi } from 'vitest';
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StoppedStart } from '../helpers/electron-standin';
import { openStore } from '../../src/main/store';

const h = vi.hoisted((): StoppedStart => ({ userData: '', shown: [], exitCode: undefined }));
h.userData = mkdtempSync(path.join(os.tmpdir(), 'sift-main-damaged-'));
afterAll(() => rmSync(h.userData, { recursive: true, force: true }));

vi.mock('electron', async () => (await import('../helpers/electron-standin')).stoppedStartElectron(h, 'no window may open over a database Sift could not open'));

// A database of the app's, cut short inside its schema's pages (17 pages of 4 KiB when new).
const db = path.join(h.userData, 'sift.db');
openStore(db).close();
truncateSync(db, 5000);

test('started on a damaged database, the app says which file, and how to start afresh without --db, then exits', async () => {
  await import('../../src/main/index');
  await vi.waitFor(() => expect(h.exitCode).toBe(1));
  expect(h.shown).toEqual([
    [
      'Sift could not start',
      `The database ${db} is damaged (SQLITE_CORRUPT).\n\nQuit Sift and move sift.db out of its folder (with sift.db-wal beside it, if there is one), then start Sift again: it starts a new, empty database. \`sqlite3 sift.db .recover\` can often save the rows the old one still holds.`,
    ],
  ]);
});
