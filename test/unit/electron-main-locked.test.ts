/**
 * src/main/index.ts started while another Sift (a `sift batch` from a terminal) owns the
 * database: the box it shows must say what to do, not only what went wrong.
 */
import { afterAll, expect, test, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StoppedStart } from '../helpers/electron-standin';
import { openStore } from '../../src/main/store';
import { markAnswering } from '../../src/main/control-owner';

const h = vi.hoisted((): StoppedStart => ({ userData: '', shown: [], exitCode: undefined }));
h.userData = mkdtempSync(path.join(os.tmpdir(), 'sift-main-locked-'));

vi.mock('electron', async () => (await import('../helpers/electron-standin')).stoppedStartElectron(h, 'no window may open over a database Sift could not open'));

// The other Sift: this process's own connection holds the lock as another process's would,
// marked as a sift command that answers requests is (control-owner.ts).
const other = openStore(path.join(h.userData, 'sift.db'));
const unmark = markAnswering(other.path);
afterAll(() => {
  unmark();
  other.close();
});

test('started while a sift command owns the database, the app says so and what to do, then exits', async () => {
  await import('../../src/main/index');
  await vi.waitFor(() => expect(h.exitCode).toBe(1));
  expect(h.shown).toEqual([
    [
      'Sift could not start',
      `The database ${path.join(h.userData, 'sift.db')} is in use by another Sift.\n\nA sift command (sift batch, say) is using it: wait for it to finish, or stop it with Ctrl-C, then start Sift again.`,
    ],
  ]);
});
