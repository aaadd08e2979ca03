import { describe, expect, it } from 'vitest';
import { DOM_QUIET_MS, NetActivity, readPage, scriptErrorWords, stalledAfterMs, TEXTLESS_STALL_MS, textSlack, type Serialized, type SettlingPage } from '../../src/main/fetch/render/settle';
import { SETTLE_IDLE_MS } from '../../src/main/fetch/render/types';

/** The settle rule's clock, given explicitly: a page with its text there, its DOM quiet for long. */
const TEXT: readonly [number, number] = [60_000, 5_000];
const BUDGET = 15_000;

describe('a request the page never gets an answer to', () => {
  it('counts while the page may be waiting on it, then no longer: the page settles without it', () => {
    const net = new NetActivity(BUDGET);
    const hung = stalledAfterMs(BUDGET);
    net.started('api', 'fetch', 0);
    expect(net.settled(TEXT, 1_000, BUDGET, hung - 1)).toBe(false);
    // Hung: the network is quiet from the moment it stopped counting.
    expect(net.settled(TEXT, 1_000, BUDGET, hung + SETTLE_IDLE_MS - 1)).toBe(false);
    expect(net.settled(TEXT, 1_000, BUDGET, hung + SETTLE_IDLE_MS)).toBe(true);
  });
  it('gives one that brings no text (an image, a font) only a moment', () => {
    const net = new NetActivity(BUDGET);
    net.started('pixel', 'image', 0);
    expect(net.settled(TEXT, 1_000, BUDGET, TEXTLESS_STALL_MS - 1)).toBe(false);
    expect(net.settled(TEXT, 1_000, BUDGET, TEXTLESS_STALL_MS + SETTLE_IDLE_MS)).toBe(true);
  });
  it('waits as long for a slow request under a longer budget, and forgets one that ended', () => {
    const net = new NetActivity(60_000);
    net.started('api', 'xhr', 0);
    expect(net.settled(TEXT, 1_000, 60_000, stalledAfterMs(BUDGET) + SETTLE_IDLE_MS)).toBe(false);
    net.ended('api', 8_000);
    expect(net.settled(TEXT, 1_000, 60_000, 8_000 + SETTLE_IDLE_MS)).toBe(true);
  });
});

describe('a page whose DOM never stays the same', () => {
  /** The network quiet from 0 on: the document loaded then, and nothing was asked since. */
  const loadedAt0 = (): NetActivity => {
    const net = new NetActivity(BUDGET);
    net.started('document', 'document', 0);
    net.ended('document', 0);
    return net;
  };
  /** Probes every 100 ms of a DOM that changed 10 ms before each, its text `chars(t)` long. */
  const settledAt = (net: NetActivity, chars: (t: number) => number, until: number): number | undefined => {
    for (let t = 1_000; t <= until; t += 100) if (net.settled([10, chars(t)], t, BUDGET, t)) return t;
    return undefined;
  };
  it('settles once its text has held steady for DOM_QUIET_MS: a ticker, a clock, a feed whose items come and go', () => {
    const at = settledAt(loadedAt0(), (t) => 5_000 + ((t / 100) % 7) * 3, BUDGET);
    expect(at).toBe(1_000 + DOM_QUIET_MS);
  });
  it('does not while its text keeps growing, nor while it is thin', () => {
    expect(settledAt(loadedAt0(), (t) => 2_000 + Math.floor(t / 1_000) * (textSlack(2_000) + 1), BUDGET)).toBeUndefined();
    expect(settledAt(loadedAt0(), () => 100, BUDGET)).toBeUndefined();
  });
  it('waits DOM_QUIET_MS again after a scroll, for what the scroll loads', () => {
    const net = loadedAt0();
    expect(settledAt(net, () => 5_000, 3_000)).toBe(3_000);
    net.textMoved(3_000);
    expect(net.settled([10, 5_000], 4_000, BUDGET, 4_000)).toBe(false);
    expect(net.settled([10, 5_000], 5_000, BUDGET, 5_000)).toBe(true);
  });
});

describe('reading a page once its budget is over', () => {
  /**
   * A page as readPage meets it: `docs` are the documents it goes through, each with its text's
   * length, its html and whether it is still being parsed; nextDocument moves to the next one,
   * as a reload that finished loading does, and stays at the last.
   */
  const pageOf = (docs: { chars: number; html: string; parsing?: boolean }[]): { page: SettlingPage; read: (ms: number) => Promise<Serialized>; waited: () => number } => {
    let at = 0;
    let waited = 0;
    const page: SettlingPage = {
      probe: () => Promise.resolve([0, docs[at]!.chars]),
      ended: () => false,
      nextDocument: () => {
        waited++;
        at = Math.min(at + 1, docs.length - 1);
        return Promise.resolve();
      },
      scroll: () => Promise.resolve(),
    };
    return { page, read: () => Promise.resolve([docs[at]!.html, docs[at]!.parsing ? 1 : 0]), waited: () => waited };
  };
  const SHELL = '<body><div id="root"></div></body>';
  const ARTICLE = `<body><article>${'A sentence of the article. '.repeat(40)}</article></body>`;
  it('waits for a document read while still being parsed to show its text: a page that reloads itself, read between two loads', async () => {
    const { page, read, waited } = pageOf([
      { chars: 0, html: SHELL, parsing: true },
      { chars: 1_080, html: ARTICLE },
    ]);
    expect(await readPage(page, read, Date.now() + 60_000)).toEqual({ html: ARTICLE, reread: true });
    expect(waited()).toBe(1);
  });
  it('reads a document that has finished parsing as it is: an app shell that stayed empty is not kept waiting', async () => {
    const { page, read, waited } = pageOf([{ chars: 0, html: SHELL }, { chars: 1_080, html: ARTICLE }]);
    expect(await readPage(page, read, Date.now() + 60_000)).toEqual({ html: SHELL, reread: false });
    expect(waited()).toBe(0);
  });
  it('takes what a document still being parsed shows once the time to read is over: a script that never loads holds its parser', async () => {
    const { page, read } = pageOf([{ chars: 0, html: SHELL, parsing: true }]);
    expect((await readPage(page, read, Date.now() + 300)).html).toBe(SHELL);
    expect((await readPage(page, read, Date.now() - 1)).html).toBe(SHELL);
  });
});

describe("a page script's error as a failure quotes it", () => {
  it('is cut before an emoji it would split, not into half of one', () => {
    // 158 units, then crabs: a cut at 159 left a crab's first half, which the stored error showed as "�".
    const said = scriptErrorWords(`Uncaught Error: ${'x'.repeat(151)}${'🦀'.repeat(20)}`);
    expect(said).toBe(`Error: ${'x'.repeat(151)}…`);
  });
});
