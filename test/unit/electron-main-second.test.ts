/**
 * src/main/index.ts started while the app already runs on the same data folder: it hands
 * over to the running one (Electron's single-instance lock) and touches nothing.
 */
import { expect, test, vi } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const h = vi.hoisted(() => ({ userData: '', quit: 0, windows: 0, errors: [] as string[] }));
h.userData = mkdtempSync(path.join(os.tmpdir(), 'sift-main-second-'));

vi.mock('electron', () => ({
  app: {
    enableSandbox: () => {},
    commandLine: { appendSwitch: () => {} },
    setName: () => {},
    whenReady: () => Promise.resolve(),
    getPath: () => h.userData,
    on: () => {},
    quit: () => h.quit++,
    exit: () => {},
    requestSingleInstanceLock: () => false,
  },
  BrowserWindow: class {
    constructor() {
      h.windows++;
    }
  },
  ipcMain: { handle: () => {} },
  session: { defaultSession: {} },
  shell: {},
  dialog: { showErrorBox: (_t: string, content: string) => h.errors.push(content) },
}));

test('a second start of the app quits at once: no window, no error box, the database not opened', async () => {
  await import('../../src/main/index');
  expect(h.quit).toBe(1);
  // boot() would have opened the database first thing after whenReady; give it that turn.
  await Promise.resolve();
  await new Promise((r) => setImmediate(r));
  expect(h.windows).toBe(0);
  expect(h.errors).toEqual([]);
  expect(existsSync(path.join(h.userData, 'sift.db'))).toBe(false);
});
