/**
 * `npm run bench -- droplist`: a 50 MB list of URLs and a 50 MB bookmarks export (the
 * url-lists corpus repeated, test/helpers/big-list.ts) dropped on the composer in Chromium
 * through the bridge. Prints the longest main-thread task and frame gap from the drop until
 * the counts show, and how long that took, against a baseline measured in the same page:
 * the file's bytes decoded on the window's thread, one step of what a drop did there before.
 * Each file is also opened with Open list… (the dialog a stand-in naming it on disk): main sends
 * its bytes a piece at a time by the dialog's token, through the window to the worker.
 */
import { ensureBuilt } from '../test/helpers/build';
import { launchChromium } from '../test/helpers/chromium';
import { startUiApp } from '../test/helpers/ui-app';
import { bridgeClientScript } from '../test/bridge/build-client';
import { PROBE, readProbe, resetProbe } from '../test/helpers/longtask';
import { bookmarksSeed, dropBigList, makeBigList, textSeed, urlListsDir, writeBigList } from '../test/helpers/big-list';
import { tempDir } from '../test/helpers/ui-app';
import path from 'node:path';
import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';

const BYTES = 50 * 1000 * 1000;

export default async function bench(): Promise<void> {
  const dir = urlListsDir();
  if (!dir) {
    process.stdout.write('skipped: shared/corpora/url-lists not found (set SIFT_CORPORA)\n');
    return;
  }
  ensureBuilt();
  const onDisk = tempDir('sift-bench-open-');
  let chosen: string | null = null;
  const app = await startUiApp({ listFile: () => chosen });
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
  await context.addInitScript({ content: `${await bridgeClientScript()}\ninstallSiftBridge(${JSON.stringify(app.bridge.wsUrl)});\n${PROBE}` });
  const ms = (n: number): string => `${n.toFixed(0)} ms`;
  try {
    for (const seed of [textSeed(dir), bookmarksSeed(dir)]) {
      const page = await context.newPage();
      await page.goto(app.bridge.url);
      await page.getByTestId('composer').waitFor();
      const size = await makeBigList(page, seed, BYTES);
      const measure = async (how: string, start: () => Promise<void>): Promise<void> => {
        await resetProbe(page);
        const started = Date.now();
        await start();
        await page.waitForFunction(() => !!document.querySelector('[data-testid="count-valid"]') && !document.querySelector('[data-testid="list-reading"]'), null, { timeout: 300_000, polling: 100 });
        const tookMs = Date.now() - started;
        const probe = await readProbe(page);
        const valid = (await page.getByTestId('count-valid').textContent())?.replace(/\D/g, '');
        const ratio = `${(probe.longtask / decodeMs).toFixed(2)}×`;
        process.stdout.write(
          `${how} ${seed.name}, ${(size / 1e6).toFixed(1)} MB: counts shown after ${ms(tookMs)} (${valid} valid); longest task ${probe.longtask > 0 ? ms(probe.longtask) : 'none over 50 ms'}, longest frame gap ${ms(probe.frameGap)}; its bytes decoded on the window's thread ${ms(decodeMs)} (longest task / that: ${ratio})\n`,
        );
      };
      const decodeMs = await page.evaluate(async () => {
        const bytes = new Uint8Array(await (window as unknown as { __bigList: File }).__bigList.arrayBuffer());
        const t = performance.now();
        new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        return performance.now() - t;
      });
      await measure('drop', () => dropBigList(page));
      await clearList(page);
      chosen = path.join(onDisk, seed.name);
      writeBigList(chosen, seed, BYTES);
      await measure('open', () => page.getByTestId('open-list').click());
      await page.close();
    }
  } finally {
    await browser.close();
    await app.close();
    rmSync(onDisk, { recursive: true, force: true });
  }
}

async function clearList(page: Page): Promise<void> {
  await page.getByTestId('list-file').getByRole('button', { name: 'Clear and paste instead' }).click();
  await page.getByTestId('paste-box').waitFor();
}
