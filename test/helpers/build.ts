import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
export const RENDERER_DIR = path.join(ROOT, 'out/renderer');

/** Builds the app once per test run (electron-vite build: main, preload, renderer). */
export function ensureBuilt(): void {
  if (process.env.SIFT_SKIP_BUILD && existsSync(path.join(RENDERER_DIR, 'index.html'))) return;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: ROOT,
    stdio: 'pipe',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
}
