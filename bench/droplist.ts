/**
 * `npm run bench -- droplist`: a 50 MB list of URLs and a 50 MB bookmarks export (the
 * url-lists corpus repeated, test/helpers/big-list.ts) dropped on the composer in Chromium
 * through the bridge. Prints the longest main-thread task and frame gap from the drop until
 * the counts show, and how long that took, against a baseline measured in the same page:
 * the file's bytes decoded on the window's thread, one step of what a drop did there before.
 */
import { ensureBuilt } from '../test/helpers/build';
import { launchChromium } from '../test/helpers/chromium';
import { startUiApp } from '../test/helpers/ui-app';
import { bridgeClientScript } from '../test/bridge/build-client';
import { PROBE, readProbe, resetProbe } from '../test/helpers/longtask';
import { bookmarksSeed, dropBigList, makeBigList, textSeed, urlListsDir } from '../test/helpers/big-list';

const BYTES = 50 * 1000 * 1000;

export default async function bench(): Promise<void> {
  const dir = urlListsDir();
  if (!dir) {
    process.stdout.write('skipped: shared/corpora/url-lists not found (set SIFT_CORPORA)\n');
    return;
  }
  ensureBuilt();
  const app = await startUiApp();
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
      await resetProbe(page);
      const started = Date.now();
      await dropBigList(page);
      await page.waitForFunction(() => !!document.querySelector('[data-testid="count-valid"]') && !document.querySelector('[data-testid="list-reading"]'), null, { timeout: 300_000, polling: 100 });
      const tookMs = Date.now() - started;
      const drop = await readProbe(page);
      const valid = (await page.getByTestId('count-valid').textContent())?.replace(/\D/g, '');
      const decodeMs = await page.evaluate(async () => {
        const bytes = new Uint8Array(await (window as unknown as { __bigList: File }).__bigList.arrayBuffer());
        const t = performance.now();
        new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        return performance.now() - t;
      });
      const ratio = `${(drop.longtask / decodeMs).toFixed(2)}×`;
      process.stdout.write(
        `${seed.name}, ${(size / 1e6).toFixed(1)} MB: counts shown after ${ms(tookMs)} (${valid} valid); longest task ${drop.longtask > 0 ? ms(drop.longtask) : 'none over 50 ms'}, longest frame gap ${ms(drop.frameGap)}; its bytes decoded on the window's thread ${ms(decodeMs)} (longest task / that: ${ratio})\n`,
      );
      await page.close();
    }
  } finally {
    await browser.close();
    await app.close();
  }
}
