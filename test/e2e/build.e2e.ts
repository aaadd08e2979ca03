import { expect, test } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureBuilt, ROOT } from '../helpers/build';

test('npm run build produces out/main, one CommonJS preload that requires only electron, and out/renderer', () => {
  ensureBuilt();
  expect(existsSync(path.join(ROOT, 'out/main/index.js'))).toBe(true);
  expect(readdirSync(path.join(ROOT, 'out/preload'))).toEqual(['index.js']);
  const preload = readFileSync(path.join(ROOT, 'out/preload/index.js'), 'utf8');
  const requires = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
  expect([...new Set(requires)]).toEqual(['electron']);
  expect(preload).not.toMatch(/^\s*(import|export)\s/m);
  const html = readFileSync(path.join(ROOT, 'out/renderer/index.html'), 'utf8');
  expect(html).toContain('Content-Security-Policy');
  expect(html).toMatch(/<script type="module" crossorigin src="\.\/assets\/index-[\w-]+\.js">/);
});
