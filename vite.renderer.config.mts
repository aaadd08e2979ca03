import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer alone, for `npm run dev` (scripts/dev.ts) and the test bridge: electron-vite's
// dev server needs the Electron binary, plain vite does not.
const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: resolve(here, 'src/renderer'),
  base: './',
  plugins: [react()],
  build: { outDir: resolve(here, 'out/renderer'), emptyOutDir: true },
  server: { host: '127.0.0.1', strictPort: false },
});
