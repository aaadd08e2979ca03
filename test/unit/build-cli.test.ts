/**
 * The CLI build's lazy cssomnom (scripts/build-cli.mjs): linkedom's one use of it, a <style>
 * element's `sheet`, still works from a bundle, and the package is evaluated only when a
 * sheet is read, not when linkedom loads.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { parseHTML as ParseHTML } from 'linkedom';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const work = mkdtempSync(path.join(os.tmpdir(), 'sift-build-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Marks cssomnom's parse module, so the test sees when its top level runs.
const marked: Plugin = {
  name: 'mark-cssomnom',
  setup(b) {
    b.onLoad({ filter: /cssomnom[\\/]dist[\\/]parse\.js$/ }, (args) => ({
      contents: `${readFileSync(args.path, 'utf8')}\nglobalThis.__siftCssomnomRan = (globalThis.__siftCssomnomRan ?? 0) + 1;\n`,
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

describe('the CLI bundle loads cssomnom only for a stylesheet', () => {
  it('parses pages without evaluating it, and still gives a <style> its sheet', async () => {
    const { lazyCssom } = (await import(pathToFileURL(path.join(root, 'scripts/build-cli.mjs')).href)) as { lazyCssom: Plugin };
    const entry = path.join(work, 'entry.mjs');
    const out = path.join(work, 'out.mjs');
    await build({
      stdin: { contents: "export { parseHTML } from 'linkedom';", resolveDir: root, sourcefile: entry, loader: 'js' },
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      external: ['canvas'],
      plugins: [lazyCssom, marked],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: 'error',
    });
    const g = globalThis as { __siftCssomnomRan?: number };
    delete g.__siftCssomnomRan;
    const { parseHTML } = (await import(pathToFileURL(out).href)) as { parseHTML: typeof ParseHTML };
    const { document } = parseHTML('<html><head><style>p { color: red } a { color: blue }</style></head><body><p>x</p></body></html>');
    expect(document.querySelector('p')?.textContent).toBe('x');
    expect(g.__siftCssomnomRan).toBeUndefined();
    const sheet = (document.querySelector('style') as unknown as { sheet: { cssRules: ArrayLike<{ selectorText: string }> } }).sheet;
    expect(Array.from(sheet.cssRules, (r) => r.selectorText)).toEqual(['p', 'a']);
    expect(g.__siftCssomnomRan).toBe(1);
  });
});
