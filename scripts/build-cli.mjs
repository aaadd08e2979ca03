// Builds the `sift` CLI: out/cli/sift.mjs and the chunks it loads on demand, with the fetch
// pipeline's worker scripts beside them (they are loaded by path from the bundle's folder):
// the plain .mjs ones copied, the HTML worker bundled (html-worker.mjs, sharing the HTML
// stack's chunk with the command).
// Run by `npm ci` (prepare), `npm run build`, `npm run build:cli` and the test setup;
// bin/sift.cjs runs it.
//
// Why: through tsx, `sift --version` took 977 ms against 113 ms for `node -e 0`, most of
// it compiling TypeScript at every start. Why chunks: one 4.5 MB file costs ~190 ms to read
// and compile before `--version` can answer; split, each command reads only its own part
// (undici, linkedom, zod, the store) when it runs.
import { copyFileSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'out', 'cli');
const workersDir = path.join(root, 'src', 'main', 'fetch');

/**
 * Left to node_modules: native code (better-sqlite3), what only the worker threads load
 * (pdfjs-dist, jq-wasm), what starts threads or browsers by file path (pino's transports,
 * playwright-core), and optional peers nothing here uses (canvas, for linkedom).
 */
export const EXTERNAL = ['better-sqlite3', 'pdfjs-dist', 'jq-wasm', 'playwright-core', 'electron', 'pino', 'canvas'];

// ESM output, for code splitting; the bundled CommonJS packages and the sources still see
// require, __filename and __dirname (worker-slot.ts finds the worker scripts by __dirname).
const BANNER = [
  "import { createRequire as __siftCreateRequire } from 'node:module';",
  "import { fileURLToPath as __siftFileURLToPath } from 'node:url';",
  "import { dirname as __siftDirname } from 'node:path';",
  'const require = __siftCreateRequire(import.meta.url);',
  'const __filename = __siftFileURLToPath(import.meta.url);',
  'const __dirname = __siftDirname(__filename);',
].join(' ');

/**
 * linkedom imports cssomnom (336 KB) for one getter, a <style> element's `sheet`, which
 * nothing in Sift reads; evaluating it was part of every start that loads the HTML stack.
 * In the bundle it is reached through require(), which esbuild turns into a module evaluated
 * at the first call, so it stays in the bundle and runs only if a `sheet` is ever read.
 */
export const lazyCssom = {
  name: 'lazy-cssomnom',
  setup(b) {
    b.onResolve({ filter: /^cssomnom\/parse$/ }, (args) => (args.namespace === 'sift-lazy' ? undefined : { path: args.resolveDir, namespace: 'sift-lazy' }));
    b.onLoad({ filter: /.*/, namespace: 'sift-lazy' }, (args) => ({
      contents: "export function parse(text) {\n  return require('cssomnom/parse').parse(text);\n}\n",
      resolveDir: args.path,
      loader: 'js',
    }));
  },
};

/** esbuild's options for Sift's node code, the CLI's and the HTML worker's alike. */
const nodeOptions = (quiet) => ({
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  banner: { js: BANNER },
  tsconfig: path.join(root, 'tsconfig.node.json'),
  legalComments: 'none',
  plugins: [lazyCssom],
  logLevel: quiet ? 'error' : 'warning',
});

const HTML_WORKER = path.join(root, 'src', 'main', 'fetch', 'html-worker.ts');

/**
 * The HTML worker as one file, for the app's main process (electron.vite.config.ts): its
 * thread loads it by path, from app.asar.unpacked in a packaged app, where neither the main
 * bundle's chunks nor node_modules are, so it holds the whole HTML stack.
 */
export async function buildHtmlWorker(outDir, { quiet = false } = {}) {
  const { patchDeps } = await import('./patch-deps.mjs');
  patchDeps();
  const { build } = await import('esbuild');
  await build({ ...nodeOptions(quiet), entryPoints: { 'html-worker': HTML_WORKER }, outdir: outDir, outExtension: { '.js': '.mjs' } });
}

export async function buildCli({ quiet = false } = {}) {
  // An installed package ships the bundle built and has neither the sources nor esbuild.
  if (!existsSync(path.join(root, 'src', 'cli', 'main.ts'))) return;
  // The bundle inlines linkedom: its fix must be in node_modules before esbuild reads it.
  const { patchDeps } = await import('./patch-deps.mjs');
  patchDeps();
  const { build } = await import('esbuild');
  // Built beside and swapped in, so stale chunks of an older build never linger and a
  // sift started during a build finds either the old folder or the new one.
  const tmp = `${outDir}.tmp-${process.pid}`;
  const old = `${outDir}.old-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    await build({
      ...nodeOptions(quiet),
      entryPoints: { sift: path.join(root, 'src', 'cli', 'main.ts'), 'html-worker': HTML_WORKER },
      outdir: tmp,
      outExtension: { '.js': '.mjs' },
      splitting: true,
    });
    for (const f of readdirSync(workersDir)) if (f.endsWith('.mjs')) copyFileSync(path.join(workersDir, f), path.join(tmp, f));
    try {
      renameSync(outDir, old);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    renameSync(tmp, outDir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildCli({ quiet: process.argv.includes('--quiet') }).catch((err) => {
    process.stderr.write(`build-cli: ${err && err.message ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
