import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer alone, for `npm run dev` (scripts/dev.ts) and the test bridge: electron-vite's
// dev server needs the Electron binary, plain vite does not.
export default defineConfig({
  root: resolve(__dirname, 'src/renderer'),
  base: './',
  plugins: [react()],
  build: { outDir: resolve(__dirname, 'out/renderer'), emptyOutDir: true },
  server: { host: '127.0.0.1', strictPort: false },
});
