import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { buildHtmlWorker } from './scripts/build-cli.mjs';

/**
 * The fetch pipeline's worker threads are loaded by path next to the code that starts them;
 * the main bundle is one file, so they go beside it: the plain .mjs ones (PDF, jq/grep)
 * copied, the HTML worker (TypeScript importing the HTML stack) bundled into one
 * html-worker.mjs by the CLI's esbuild setup.
 */
const copyWorkers = {
  name: 'sift-copy-workers',
  async writeBundle() {
    const from = resolve(__dirname, 'src/main/fetch');
    const to = resolve(__dirname, 'out/main');
    mkdirSync(to, { recursive: true });
    for (const f of readdirSync(from)) if (f.endsWith('.mjs')) copyFileSync(resolve(from, f), resolve(to, f));
    await buildHtmlWorker(to, { quiet: true });
  },
};

export default defineConfig({
  main: {
    plugins: [copyWorkers],
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can require only 'electron' and a few Node built-ins, so every
      // dependency (zod, the contract) is bundled into one CommonJS file.
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
