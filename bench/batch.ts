/**
 * `npm run bench -- batch`: the same 1,000-page list served on loopback, fetched by sift in
 * mode raw and in markdown mode, by a bare Node loop, by `wget -i` and by `curl`, in one run
 * (_batch-tools.ts). Prints sift's time relative to each. Targets (issue 15): raw <= 3x
 * wget -i's time, markdown <= 5 ms/page, on the medians of alternated rounds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSite } from '../test/helpers/sites';
import { compareBatch, requireBundle } from './_batch-tools';

const PAGES = 1_000;

export default async function run(): Promise<void> {
  requireBundle();
  const site = await startSite();
  const work = mkdtempSync(path.join(os.tmpdir(), 'sift-bench-batch-'));
  try {
    const urls = Array.from({ length: PAGES }, (_, i) => `${site.base}/article/${i}`);
    const results = await compareBatch(urls, work);
    const rawRatio = results.wget ? results.raw! / results.wget : NaN;
    const mdPerPage = results.sift! / PAGES;
    process.stdout.write(
      `target: raw <= 3x wget -i (${rawRatio.toFixed(2)}x: ${rawRatio <= 3 ? 'holds' : 'does not hold'}), markdown <= 5 ms/page (${mdPerPage.toFixed(2)} ms/page: ${mdPerPage <= 5 ? 'holds' : 'does not hold'})\n`,
    );
  } finally {
    await site.close();
    rmSync(work, { recursive: true, force: true });
  }
}
