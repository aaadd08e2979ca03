/**
 * `npm run bench -- render`: what rendering a page costs. On the loopback fixtures of the
 * render tests, in one run: a static fetch of a page (the baseline) against the same page
 * rendered in the system Chromium through the guarding proxy; the browser's start-up; and
 * the browser's memory (its whole process tree) after 20 renders against after 200 (it must
 * not grow: every target gets a fresh context that is closed after it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ChromiumRenderer, createFetcher, GuardProxy, systemResolver, chromiumArgs, findBrowser } from '../src/main/fetch';
import { startRenderSites } from '../test/helpers/render-sites';
import { SiftError } from '../src/shared/errors';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};
const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;

/** Resident memory (KiB) of a process and all its descendants (Linux /proc). */
function treeRssKiB(root: number): number {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, i = 0; p && i < 64; p = parent.get(p), i++) if (p === root) return true;
    return false;
  };
  let kib = 0;
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return kib;
}

export default async function run(): Promise<void> {
  const info = findBrowser('');
  if (!info.ok) {
    process.stdout.write(`no browser: ${info.why}. ${info.hint}\n`);
    return;
  }
  const sites = await startRenderSites();
  const url = (p: string): string => `${sites.allowed.origin}/${p}`;
  const caller = { name: 'bench' };
  const fetcher = createFetcher({ allowHosts: ['127.0.0.1'] });
  try {
    // 1. Per page: static fetch vs rendered, same page, warm (the browser is up).
    const N = 8;
    // Fetched without rendering, an app shell (fetch.html) fails as needs_js, as it should:
    // the fetch and the judging that said so are the baseline's time all the same.
    const fetchOnce = async (page: string, render: 'never' | 'always'): Promise<number> => {
      const t = performance.now();
      try {
        const r = await fetcher.fetchTarget(new AbortController().signal, caller, { url: url(page), options: { render, mode: 'text' } });
        if (render === 'always' && r.meta?.rendered !== true) throw new Error('not rendered');
      } catch (err) {
        if (render === 'always' || !(err instanceof SiftError) || err.code !== 'needs_js') throw err;
      }
      return performance.now() - t;
    };
    await fetchOnce('static.html', 'always'); // starts the browser
    for (const page of ['static.html', 'fetch.html']) {
      const stat: number[] = [];
      const rend: number[] = [];
      for (let i = 0; i < N; i++) {
        stat.push(await fetchOnce(page, 'never'));
        rend.push(await fetchOnce(page, 'always'));
      }
      const s = median(stat);
      const r = median(rend);
      process.stdout.write(`${page.padEnd(12)} static fetch ${fmt(s)} | rendered ${fmt(r)} | render costs ${(r / s).toFixed(1)}x a static fetch (median of ${N})\n`);
    }
    const staticMs = median(await Promise.all([0, 1, 2].map(() => fetchOnce('static.html', 'never'))));

    // 2. Browser start-up: launch to first page ready, cold each time.
    const { chromium } = await import('playwright-core');
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const b = await chromium.launch({ executablePath: info.path, headless: true, args: chromiumArgs('http://127.0.0.1:9') });
      const ctx = await b.newContext();
      await ctx.newPage();
      starts.push(performance.now() - t);
      await b.close();
    }
    process.stdout.write(`browser start-up ${fmt(median(starts))} (median of 3) = ${(median(starts) / staticMs).toFixed(0)}x a static fetch; paid once per run, the browser closes after 30 s idle\n`);

    // 3. Memory: the browser's process tree after 20 and after 200 renders, 2 at a time.
    const proxy = new GuardProxy(() => ({ allowPrivate: false, allowHosts: ['127.0.0.1'] }), systemResolver);
    const renderer = new ChromiumRenderer({ proxy: () => proxy.start(), proxyEvents: (l) => proxy.on(l), proxySession: () => proxy.session(), policy: () => ({ allowPrivate: false, allowHosts: ['127.0.0.1'] }), chromiumPath: () => '', userAgent: () => 'Sift-bench', log: () => {} });
    const pages = ['inline.html', 'fetch.html', 'next.html', 'module.html', 'static.html', 'state.html'];
    let done = 0;
    const renderN = async (n: number): Promise<void> => {
      const lane = async (): Promise<void> => {
        while (done < n) {
          const p = pages[done++ % pages.length] as string;
          await renderer.render(url(p), new AbortController().signal, 15_000);
          if (done % 50 === 0) process.stderr.write(`  ${done} renders\n`);
        }
      };
      await Promise.all([lane(), lane()]);
    };
    await renderN(20);
    const pid = await renderer.browserPid();
    if (!pid) {
      process.stdout.write('browser memory: cannot read the process tree on this platform\n');
    } else {
      const at20 = treeRssKiB(pid);
      const t = performance.now();
      await renderN(200);
      const per = (performance.now() - t) / 180;
      const at200 = treeRssKiB(pid);
      const ratio = at200 / at20;
      process.stdout.write(
        `browser memory after 20 renders ${(at20 / 1024).toFixed(0)} MiB, after 200 ${(at200 / 1024).toFixed(0)} MiB: ${ratio.toFixed(2)}x (${ratio <= 1.15 ? 'no growth' : 'GROWS'}); ${fmt(per)} per render, 2 at a time\n`,
      );
    }
    await renderer.close();
    await proxy.close();
  } finally {
    await fetcher.close();
    await sites.close();
  }
}
