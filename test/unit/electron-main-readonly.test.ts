/**
 * src/main/index.ts started on a data folder that takes no writes (a read-only disk, a folder
 * of another user's): the box it shows names the folder and says what to do, in Sift's words.
 */
import { afterAll, expect, test, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StoppedStart } from '../helpers/electron-standin';
import { mountTmpfs, unmountTmpfs } from '../helpers/tmpfs';

const h = vi.hoisted((): StoppedStart => ({ userData: '', shown: [], exitCode: undefined }));

vi.mock('electron', async () => (await import('../helpers/electron-standin')).stoppedStartElectron(h, 'no window may open over a data folder Sift could not write'));

// Root writes through permissions: a tmpfs mounted read-only then. Anyone else: a folder they may not write.
const root = process.getuid?.() === 0;
const mnt = path.join(os.tmpdir(), `sift-main-readonly-${process.pid}`);
const mounted = root && mountTmpfs(mnt, '1m');
if (mounted) execFileSync('mount', ['-o', 'remount,ro', mnt]);
h.userData = mounted ? mnt : mkdtempSync(path.join(os.tmpdir(), 'sift-main-readonly-'));
if (!root) chmodSync(h.userData, 0o555);
afterAll(() => {
  if (mounted) unmountTmpfs(mnt, true);
  else {
    chmodSync(h.userData, 0o755);
    rmSync(h.userData, { recursive: true, force: true });
  }
});

test('started on a data folder it cannot write, the app names the folder and what to do, then exits', async (ctx) => {
  if (root && !mounted) ctx.skip();
  await import('../../src/main/index');
  await vi.waitFor(() => expect(h.exitCode).toBe(1));
  // It read "EROFS: read-only file system, open '…/sift.log'", Node's words for the log file.
  expect(h.shown).toEqual([
    [
      'Sift could not start',
      `Sift cannot write to its data folder ${h.userData}: ${mounted ? 'it is on a read-only disk' : 'permission denied'}.\n\nSift keeps its jobs, results and log there. Make the folder writable for you, then start Sift again; nothing stored there is lost.`,
    ],
  ]);
});
