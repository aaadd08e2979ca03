/**
 * `npm run bench -- ui`: a 10,000-target job with an instant fetch function, shown live in
 * Chromium through the bridge, then scrolled end to end. Prints the longest main-thread
 * task (PerformanceObserver 'longtask', plus the longest gap between frames, which also
 * sees blocks under 50 ms) and the JS heap at the end (CDP, after a GC), against two
 * baselines measured in the same run: the app with nothing open, and the same 10,000 rows
 * rendered as a plain, non-virtualized list.
 *
 * Then the composer's paste box with a 50,000-line list: the longest main-thread task of the
 * paste (Ctrl+V, through the clipboard) until the counts show, and while typing (a line at a
 * time, each until its pause's parse shows), against a bare <textarea> given the same paste
 * and keys in the same browser: what the browser's own editing of that much text costs here.
 */
import type { CDPSession, Page } from 'playwright-core';
import type { FetchFunc } from '../src/main/batch';
import type { SiftApi } from '../src/shared/ipc/contract';
import { ensureBuilt } from '../test/helpers/build';
import { launchChromium } from '../test/helpers/chromium';
import { startUiApp } from '../test/helpers/ui-app';
import { bridgeClientScript } from '../test/bridge/build-client';
import { PROBE, readProbe, resetProbe } from '../test/helpers/longtask';

const TARGETS = 10_000;
const SCROLL_STEPS = 60;
const PASTE_LINES = 50_000;
const TYPED_LINES = 5;

/** A long list as people paste them: options on some lines, a few invalid lines and duplicates. */
function longList(): string {
  const out: string[] = [];
  for (let i = 0; i < PASTE_LINES; i++) {
    if (i % 1000 === 7) out.push(`not a url ${i}`);
    else if (i % 1000 === 9) out.push(`https://example.org/page/${i - 1}`);
    else if (i % 50 === 3) out.push(`https://example.org/doc/${i}.pdf pages=1-3 grep="net revenue"`);
    else out.push(`https://example.org/page/${i}`);
  }
  return out.join('\n');
}

const frames = (page: Page): Promise<unknown> => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Longest task of a paste, of the keys of typing in `box` (a selector) and of the pauses
 * after them; `settled(n)` waits for the page to have taken in the list after n typed lines
 * (the counts, for the app).
 */
async function pasteAndType(page: Page, box: string, text: string, settled: (typed: number) => Promise<unknown>): Promise<{ paste: number; keys: number; pause: number; typingScript: number; typingTask: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  // Seconds of JavaScript and of all main-thread tasks so far (CDP's cumulative counters).
  const spent = async (): Promise<{ script: number; task: number }> => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const get = (name: string): number => metrics.find((m) => m.name === name)?.value ?? 0;
    return { script: get('ScriptDuration'), task: get('TaskDuration') };
  };
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.focus(box);
  await resetProbe(page);
  await page.keyboard.press('Control+V');
  await settled(0);
  await frames(page);
  const paste = (await readProbe(page)).longtask;
  let keys = 0;
  let pause = 0;
  const before = await spent();
  for (let i = 1; i <= TYPED_LINES; i++) {
    await resetProbe(page);
    await page.keyboard.press('Enter');
    await page.keyboard.type(`https://example.org/typed/${i}`);
    // The keys' tasks have run once two frames have been drawn; the pause's parse comes after.
    await frames(page);
    keys = Math.max(keys, (await readProbe(page)).longtask);
    await resetProbe(page);
    await settled(i);
    await frames(page);
    pause = Math.max(pause, (await readProbe(page)).longtask);
  }
  const after = await spent();
  return { paste, keys, pause, typingScript: (after.script - before.script) * 1000, typingTask: (after.task - before.task) * 1000 };
}

async function heapMiB(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  return used / 1024 / 1024;
}

export default async function bench(): Promise<void> {
  ensureBuilt();
  const instant: FetchFunc = async (_signal, _caller, t) => ({ content: `# ${t.url}\n\nA short result.`, meta: { title: `Page ${t.url.slice(-6)}` } });
  const app = await startUiApp({ fetch: instant, settings: { targetsPerJob: TARGETS } });
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
  await context.addInitScript({ content: `${await bridgeClientScript()}\ninstallSiftBridge(${JSON.stringify(app.bridge.wsUrl)});\n${PROBE}` });

  try {
    // Baseline 1: the app with nothing open.
    const empty = await context.newPage();
    const emptyCdp = await context.newCDPSession(empty);
    await emptyCdp.send('Performance.enable');
    await empty.goto(app.bridge.url);
    await empty.getByTestId('composer').waitFor();
    await empty.waitForTimeout(500);
    const emptyHeap = await heapMiB(emptyCdp);

    // The job, submitted as the composer would, shown while it runs.
    const targets = Array.from({ length: TARGETS }, (_, i) => ({ url: `https://example.org/page/${i}` }));
    const started = Date.now();
    const { id } = await app.services.handlers.submit({ targets });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(`${app.bridge.url}#job/${id}`);
    await page.getByTestId('job-header').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="job-header"]')?.getAttribute('data-status') === 'done', null, { timeout: 120_000, polling: 200 });
    const runMs = Date.now() - started;
    const live = await readProbe(page);

    await resetProbe(page);
    const scroll = page.getByTestId('target-scroll');
    for (let i = 1; i <= SCROLL_STEPS; i++) {
      await scroll.evaluate((el, f) => {
        el.scrollTop = f * el.scrollHeight;
      }, i / SCROLL_STEPS);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    const rowsInDom = await page.getByTestId('target-row').count();
    const scrolled = await readProbe(page);
    const heap = await heapMiB(cdp);

    // Baseline 2: the same rows as a plain list, every row in the DOM.
    const plain = await context.newPage();
    const plainCdp = await context.newCDPSession(plain);
    await plainCdp.send('Performance.enable');
    await plain.goto(app.bridge.url);
    await plain.getByTestId('composer').waitFor();
    await resetProbe(plain);
    await plain.evaluate(async (jobId) => {
      const { targets: rows } = await (window as unknown as { sift: SiftApi }).sift.jobDetail({ id: jobId });
      const main = document.querySelector('main')!;
      main.replaceChildren();
      const list = document.createElement('div');
      list.className = 'target-scroll';
      for (const r of rows) {
        const row = document.createElement('div');
        row.className = 'target-row';
        for (const text of [String(r.idx + 1), r.status, r.url, r.title, String(r.bytes), '']) {
          const cell = document.createElement('span');
          cell.textContent = text;
          row.append(cell);
        }
        list.append(row);
      }
      main.append(list);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (let i = 1; i <= 60; i++) {
        list.scrollTop = (i / 60) * list.scrollHeight;
        await new Promise((r) => requestAnimationFrame(r));
      }
    }, id);
    const plainProbe = await readProbe(plain);
    const plainHeap = await heapMiB(plainCdp);

    // The paste box: a bare textarea first (same origin, so the same clipboard permission), then the app's.
    const text = longList();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.bridge.url });
    const bare = await context.newPage();
    await bare.goto(app.bridge.url);
    await bare.getByTestId('composer').waitFor();
    await bare.evaluate(() => {
      const t = document.createElement('textarea');
      t.id = 'bare';
      t.style.cssText = 'width: 600px; height: 300px; font-family: monospace';
      document.body.replaceChildren(t);
    });
    const bareTimes = await pasteAndType(bare, '#bare', text, (typed) =>
      bare.waitForFunction((n) => (document.getElementById('bare') as HTMLTextAreaElement).value.split('\n').length === n, PASTE_LINES + typed, { polling: 100 }),
    );
    const composer = await context.newPage();
    await composer.goto(app.bridge.url);
    await composer.getByTestId('composer').waitFor();
    let valid = 0;
    const appTimes = await pasteAndType(composer, '#paste-box', text, async (typed) => {
      if (typed === 0) {
        await composer.waitForFunction(() => !!document.querySelector('[data-testid="count-valid"]') && !document.querySelector('.parse-summary')?.textContent?.includes('updating'), null, { timeout: 120_000, polling: 100 });
        valid = Number((await composer.getByTestId('count-valid').textContent())?.replace(/\D/g, ''));
        return;
      }
      await composer.waitForFunction(
        (n) => document.querySelector('[data-testid="count-valid"]')?.textContent?.replace(/\D/g, '') === String(n) && !document.querySelector('.parse-summary')?.textContent?.includes('updating'),
        valid + typed,
        { timeout: 120_000, polling: 100 },
      );
    });

    const ms = (n: number): string => `${n.toFixed(0)} ms`;
    const worst = Math.max(live.longtask, scrolled.longtask);
    const worstGap = Math.max(live.frameGap, scrolled.frameGap);
    const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');
    process.stdout.write(
      [
        `job: ${TARGETS.toLocaleString()} targets, instant fetch, done in ${ms(runMs)} while shown live; ${rowsInDom} rows in the DOM after scrolling`,
        `longest main-thread task: ${worst > 0 ? ms(worst) : 'none over 50 ms'} (live ${live.longtask > 0 ? ms(live.longtask) : '<50 ms'}, scroll ${scrolled.longtask > 0 ? ms(scrolled.longtask) : '<50 ms'})`,
        `longest frame gap:        live ${ms(live.frameGap)}, scroll ${ms(scrolled.frameGap)}`,
        `plain 10,000-row list:    longest task ${plainProbe.longtask > 0 ? ms(plainProbe.longtask) : '<50 ms'}, longest frame gap ${ms(plainProbe.frameGap)}`,
        `  ratio (virtualized / plain): longest task ${ratio(worst, plainProbe.longtask)}, frame gap ${ratio(worstGap, plainProbe.frameGap)}`,
        `JS heap at the end:       ${heap.toFixed(1)} MiB (empty app ${emptyHeap.toFixed(1)} MiB, plain list ${plainHeap.toFixed(1)} MiB)`,
        `  ratio vs empty app: ${ratio(heap, emptyHeap)}; vs plain list: ${ratio(heap, plainHeap)}`,
        `paste box, ${PASTE_LINES.toLocaleString()} lines (${valid.toLocaleString()} valid), longest task: paste ${ms(appTimes.paste)}, keys of ${TYPED_LINES} typed lines ${ms(appTimes.keys)}, the pauses' parse ${appTimes.pause > 0 ? ms(appTimes.pause) : 'none over 50 ms'}`,
        `bare textarea, same paste and keys:          paste ${ms(bareTimes.paste)}, keys ${ms(bareTimes.keys)}`,
        `  ratio (paste box / bare textarea): paste ${ratio(appTimes.paste, bareTimes.paste)}, keys ${ratio(appTimes.keys, bareTimes.keys)}, keys and pauses ${ratio(Math.max(appTimes.keys, appTimes.pause), bareTimes.keys)}`,
        `typing ${TYPED_LINES} lines, main thread busy: paste box ${ms(appTimes.typingTask)} of which JavaScript ${ms(appTimes.typingScript)}; bare textarea ${ms(bareTimes.typingTask)} (JavaScript ${ms(bareTimes.typingScript)})`,
        `  ratio: the paste box's JavaScript / the bare textarea's whole editing ${ratio(appTimes.typingScript, bareTimes.typingTask)}`,
        '',
      ].join('\n'),
    );
  } finally {
    await browser.close();
    await app.close();
  }
}
