/**
 * `npm run bench [-- NAME...]`: runs the named benchmarks (all when none is named). Each
 * prints its figures as ratios against a baseline measured in the same run, because these
 * machines are noisy and absolute times mislead.
 */
import path from 'node:path';
import { readdirSync } from 'node:fs';

async function main(): Promise<void> {
  const dir = __dirname;
  const all = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.startsWith('_'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = wanted.filter((w) => !all.includes(w));
  if (unknown.length) {
    process.stderr.write(`unknown benchmark: ${unknown.join(', ')} (have: ${all.join(', ')})\n`);
    process.exit(2);
  }
  for (const name of wanted.length ? wanted : all) {
    process.stdout.write(`\n## bench ${name}\n`);
    const mod = (await import(path.join(dir, `${name}.ts`))) as { default: () => Promise<void> };
    await mod.default();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
