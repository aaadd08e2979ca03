import type { CDPSession, Page, Request, Response } from 'playwright-core';
import { FetchError, timeoutError } from '../errors';
import { bareHost } from '../guard';
import { THIN_CHARS } from './decide';
import { GUARD_HEADER } from './proxy';
import { SETTLE_IDLE_MS, type Rendered } from './types';
import { RENDER_HINT, type Surface } from '../../../shared/hints';
import { cutEnd } from '../../../shared/cut';

/**
 * Runs in every frame before the page's own scripts: records the last DOM change (so
 * "settled" means quiet, not just loaded), takes window.open away (a popup would be a
 * second page outside the one being rendered; the context closes any that appear anyway)
 * and follows each shadow root the page attaches: its changes count as the DOM's, PROBE
 * counts its text, and a closed one is kept where SERIALIZE can read it.
 */
export const SETTLE_SCRIPT = `(() => {
  try { Object.defineProperty(window, 'open', { value: function () { return null; }, writable: false, configurable: false }); } catch (e) {}
  window.__siftChanged = Date.now();
  var watch = { subtree: true, childList: true, characterData: true, attributes: false };
  var observer;
  try {
    observer = new MutationObserver(function () { window.__siftChanged = Date.now(); });
    observer.observe(document, watch);
  } catch (e) {}
  try {
    var closed = new WeakMap(), roots = [], attach = Element.prototype.attachShadow;
    Object.defineProperty(window, '__siftClosedShadow', { value: closed });
    Object.defineProperty(window, '__siftShadowRoots', { value: roots });
    Element.prototype.attachShadow = function (init) {
      var root = attach.call(this, init);
      roots.push(root);
      if (init && init.mode === 'closed') closed.set(this, root);
      try { observer.observe(root, watch); } catch (e) {}
      return root;
    };
  } catch (e) {}
})();`;

/**
 * The rendered page as HTML, its shadow roots laid into it as the reader sees them: each
 * host's shadow content in place of its children, a slot replaced by what is assigned to it
 * (else its fallback), children assigned to no slot left out. The page's HTML alone
 * (Playwright's page.content()) holds no shadow root, so a page made of web components (Lit,
 * Stencil, LWC) came out as its light DOM: an article in shadow roots was "an app shell that
 * stayed empty". The page is changed in place, once it has settled and just before its
 * context is closed. Hosts are taken outside in, so a slot inside a shadow root gets its
 * host's children before any host among them is laid out in turn.
 */
export const SERIALIZE = `(() => {
  var page = function () { return (document.doctype ? '<!doctype html>' : '') + document.documentElement.outerHTML; };
  if (document.readyState === 'loading' && (document.body ? document.body.innerText.length : 0) < ${THIN_CHARS}) return [page(), 1];
  var closed = window.__siftClosedShadow;
  var hosts = [];
  var collect = function (root) {
    var all = root.querySelectorAll('*');
    for (var i = 0; i < all.length; i++) {
      var sr = all[i].shadowRoot || (closed && closed.get(all[i]));
      if (sr) { hosts.push([all[i], sr]); collect(sr); }
    }
  };
  collect(document);
  hosts.forEach(function (h) {
    var slots = h[1].querySelectorAll('slot');
    var filled = Array.prototype.map.call(slots, function (s) {
      var got = s.assignedNodes();
      return got.length ? got : Array.prototype.slice.call(s.childNodes);
    });
    for (var i = 0; i < slots.length; i++) slots[i].replaceWith.apply(slots[i], filled[i]);
    h[0].replaceChildren.apply(h[0], Array.prototype.slice.call(h[1].childNodes));
  });
  return [page(), 0];
})()`;

/**
 * SERIALIZE's answer: the page's html, and 1 when it was read in a document still being parsed
 * that shows no text yet (its shadow roots left as they are, for it may be read again).
 */
export type Serialized = readonly [html: string, parsing: number];

/**
 * [ms since the DOM last changed, visible text length]: what both renderers poll. The body's
 * innerText holds nothing of a shadow root, so the text of the roots the page attached is
 * added: a page of web components read as thin and waited THIN_PATIENCE_MS (6.2 s where its
 * light-DOM twin took 1.7 s). Not their stylesheets' and scripts' text, which the roots'
 * textContent held: a shell whose components bring their own CSS (2,822 characters where 12
 * show) read as a page with its text there, and was read without the time a thin page gets.
 */
export const PROBE = `(function () {
  var shown = function (root) {
    var walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), n = 0, t;
    while ((t = walk.nextNode())) if (!/^(?:STYLE|SCRIPT)$/.test(t.parentNode.nodeName)) n += t.data.length;
    return n;
  };
  return [Date.now() - (window.__siftChanged || 0), document.body ? document.body.innerText.length + (window.__siftShadowRoots || []).reduce(function (n, r) { return r.host.isConnected ? n + shown(r) : n; }, 0) : 0];
})()`;

// A page that is still thin when the network goes quiet may be waiting on a timer (content
// "after a delay"); it gets this much longer, within the budget, to fill in.
export const THIN_PATIENCE_MS = 5_000;

/**
 * How long a thin page gets to fill in under a render budget: THIN_PATIENCE_MS under the
 * default 15 s, a third of a larger one. A flat 5 s made "raise Time a page may run", the hint
 * an app shell that stayed empty gets, change nothing: a page whose article came after 8 s
 * failed as empty at 5 s under a 60 s budget as under 15 s.
 */
export function thinPatienceMs(budgetMs: number): number {
  return Math.min(budgetMs, Math.max(THIN_PATIENCE_MS, Math.round(budgetMs / 3)));
}

/**
 * Scrolls the page down to its end, a viewport at a time (at most SCROLL_STEPS steps, a frame
 * each), then the element the page scrolls in, if it is not the document: content that loads
 * as the reader scrolls (an IntersectionObserver on a sentinel, a scroll listener, "load
 * more" on reaching the end) loads once. Without it such a page rendered as the shell it
 * starts as, and failed as an app shell that "stayed empty". Resolves two frames after the
 * last step, so the page's own callbacks have run; a frame is at most 100 ms (a window that
 * draws no frames still scrolls).
 */
export const SCROLL_STEPS = 20;
export const SCROLL = `new Promise(function (resolve) {
  var frame = function (f) {
    var called = false, once = function () { if (!called) { called = true; f(); } };
    requestAnimationFrame(once);
    setTimeout(once, 100);
  };
  var doc = document.scrollingElement || document.documentElement;
  var steps = 0;
  var finish = function () {
    var inner = null, most = doc.clientHeight;
    var all = document.body ? document.body.querySelectorAll('*') : [];
    for (var i = 0; i < all.length && i < 20000; i++) {
      var el = all[i];
      if (el.scrollHeight - el.clientHeight > 1 && el.clientHeight > most / 2 && /auto|scroll/.test(getComputedStyle(el).overflowY)) { inner = el; most = el.clientHeight; }
    }
    if (inner) inner.scrollTop = inner.scrollHeight;
    frame(function () { frame(function () { resolve(true); }); });
  };
  var step = function () {
    var view = window.innerHeight || doc.clientHeight || 900;
    if (steps++ >= ${SCROLL_STEPS} || doc.scrollTop + view >= doc.scrollHeight - 1) return finish();
    window.scrollTo(0, doc.scrollTop + Math.max(view, Math.ceil(doc.scrollHeight / ${SCROLL_STEPS})));
    frame(step);
  };
  step();
})`;
export const TICK_MS = 100;
/**
 * A page whose network never goes quiet (it polls, sends beacons, streams ads) is read once
 * its DOM has stayed the same this long with text in it; such a page took the whole render
 * budget before (a poll every 300 ms: 17 s where the text was there at once).
 */
export const DOM_QUIET_MS = 2_000;
/** How often a busy page is asked whether its DOM has stayed the same. */
export const PROBE_BUSY_MS = 500;

/**
 * Requests that bring no text to the page (images, media, fonts, beacons, reports): one still
 * in flight after TEXTLESS_STALL_MS stops counting. An ad's pixel whose server never answered
 * kept the network busy, and the page's article was read only when the proxy gave up on it
 * (10 s) or the budget ran out.
 */
const TEXTLESS = new Set(['image', 'imageset', 'media', 'font', 'ping', 'beacon', 'cspreport', 'csp_report', 'cspviolationreport', 'manifest', 'texttrack', 'object']);
export const TEXTLESS_STALL_MS = 1_000;

/**
 * How long a request that may bring text (a script, an API call, a frame) counts while it is in
 * flight: as long as a thin page gets to fill in (5 s under the default 15 s budget, a third of
 * a longer one). Past that it is taken as hung: a tracker's request that never ended kept a
 * page whose article was there at once until the end of the budget. A slower answer the page
 * waits on needs a longer budget, as a page that fills in late does.
 */
export function stalledAfterMs(budgetMs: number): number {
  return thinPatienceMs(budgetMs);
}

interface Open {
  at: number;
  /** Its resource type, lower-cased (Playwright's or Electron's). */
  type: string;
  /** How long it counts: past this it is hung, and the page settles without it. */
  countsMs: number;
}

/**
 * A rendered page's requests, as both renderers count them, and the settle rule they follow.
 * Settled: with the network quiet for SETTLE_IDLE_MS, the DOM quiet as long and text in it (a
 * thin page gets THIN_PATIENCE_MS to fill in); or, while requests keep starting (a page that
 * polls or beacons), the DOM quiet for DOM_QUIET_MS with text in it. One slow request the
 * page may be waiting on (its article from an API) is waited for, as before, up to
 * stalledAfterMs; a request that never ends (hung) stops counting then (TEXTLESS_STALL_MS for
 * one that brings no text), so the page settles as if it had failed. A DOM that never stays
 * the same (a ticker, a live price, a video's clock) counts as quiet once its text has held
 * steady for DOM_QUIET_MS (textSlack).
 */
export class NetActivity {
  private readonly open = new Map<unknown, Open>();
  private changed = Date.now();
  /** When the request before the latest one started: the latest is newer still. */
  private previousStart = -Infinity;
  private latestStart = -Infinity;
  private lastProbe = -Infinity;
  private readonly stallMs: number;
  /** The text length the probes found, and since when it has stayed within textSlack of it. */
  private text = { chars: -1, since: 0 };

  /** `budgetMs`: the render budget, which sets how long a request may hang (stalledAfterMs). */
  constructor(budgetMs: number) {
    this.stallMs = stalledAfterMs(budgetMs);
  }

  /** A request started; `id` names it to ended(), `type` is its resource type (Playwright's or Electron's). */
  started(id: unknown, type = '', now = Date.now()): void {
    const t = type.toLowerCase();
    this.open.set(id, { at: now, type: t, countsMs: TEXTLESS.has(t) ? TEXTLESS_STALL_MS : this.stallMs });
    this.changed = now;
    this.previousStart = this.latestStart;
    this.latestStart = now;
  }
  ended(id: unknown, now = Date.now()): void {
    if (this.open.delete(id)) this.changed = now;
  }
  private quiet(now: number): boolean {
    // A request that stopped counting is a change of its own: the network is quiet from then.
    let last = this.changed;
    for (const r of this.open.values()) {
      if (now - r.at < r.countsMs) return false;
      last = Math.max(last, r.at + r.countsMs);
    }
    return now - last >= SETTLE_IDLE_MS;
  }
  /** Requests keep starting: at least two within the last DOM_QUIET_MS. */
  private repeating(now: number): boolean {
    return now - this.previousStart < DOM_QUIET_MS;
  }
  /** Whether to ask the page for PROBE now: at every tick once the network is quiet, every PROBE_BUSY_MS while it keeps busy. */
  probeDue(now = Date.now()): boolean {
    if (!this.quiet(now) && !(this.repeating(now) && now - this.lastProbe >= PROBE_BUSY_MS)) return false;
    this.lastProbe = now;
    return true;
  }
  /** Whether a PROBE answer says the page is still: its network and its DOM quiet, text or not. */
  still([quietMs]: readonly [number, number], now = Date.now()): boolean {
    return this.quiet(now) && quietMs >= SETTLE_IDLE_MS;
  }
  /** Whether a PROBE answer means the page has settled. */
  settled([quietMs, textChars]: readonly [number, number], sinceLoadMs: number, budgetMs: number, now = Date.now()): boolean {
    if (Math.abs(textChars - this.text.chars) > textSlack(this.text.chars)) this.text = { chars: textChars, since: now };
    // Its text held steady while the DOM kept changing: what changes is a ticker, not the article.
    const steady = textChars >= THIN_CHARS && now - this.text.since >= DOM_QUIET_MS;
    if (this.quiet(now)) return (quietMs >= SETTLE_IDLE_MS && (textChars >= THIN_CHARS || sinceLoadMs >= thinPatienceMs(budgetMs))) || steady;
    return this.repeating(now) && (quietMs >= DOM_QUIET_MS || steady) && textChars >= THIN_CHARS;
  }
  /** Scripts and stylesheets asked for and not yet received: a page that never answered may be waiting on them. */
  blockingWaiting(): Blocking {
    const n = { scripts: 0, stylesheets: 0 };
    for (const r of this.open.values()) {
      if (r.type === 'script') n.scripts++;
      else if (r.type === 'stylesheet') n.stylesheets++;
    }
    return n;
  }
  /** The page was scrolled (or went to another document): its text counts as steady only from now. */
  textMoved(now = Date.now()): void {
    this.text = { chars: this.text.chars, since: now };
  }
}

/**
 * How much a page's text may change and still count as steady: 64 characters, or 2% of a
 * longer text. A page that never stopped changing its DOM (a clock or counter redrawn every
 * frame, a price or a feed over a WebSocket every 300 ms, a video's time) was read only when
 * the budget ran out, 15 s a page and "Rendering cut short", with its article there at once:
 * such changes keep the length within a few characters (a feed's items come and go), where an
 * article that is still arriving grows past this within DOM_QUIET_MS.
 */
export const textSlack = (chars: number): number => Math.max(64, Math.round(chars * 0.02));

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref?.());

/** p's value, or undefined once ms have passed or p rejected. */
export function bounded<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(undefined), Math.max(0, ms));
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      () => {
        clearTimeout(t);
        resolve(undefined);
      },
    );
  });
}

/**
 * The page's answer to PROBE within ms: undefined when it did not answer (its main thread is
 * stuck), 'gone' when the document it was asked in went away first. A script that moves the
 * page on (location.href, a meta refresh) after the load destroys the document being asked;
 * that was read as a stuck page, and the target failed as "did not yield within the render
 * budget" seconds into it, where the page it went to rendered, or the guard had refused it.
 */
function probe(page: Page, ms: number): Promise<[number, number] | 'gone' | undefined> {
  return bounded((page.evaluate(PROBE) as Promise<[number, number]>).catch(() => 'gone' as const), ms);
}

/** A loaded page as the settle loop sees it, in Chromium (playwright) or in Electron's window. */
export interface SettlingPage {
  /** PROBE's answer within ms; 'gone' when the document asked went away (it navigated) first. */
  probe(ms: number): Promise<readonly [number, number] | 'gone' | undefined>;
  /** After a document went away: nothing more will load (the guard refused where it went, the browser could not go). */
  ended(): boolean;
  /** Waits, at most ms, for the document the page went to to load and be ready to probe. */
  nextDocument(ms: number): Promise<void>;
  /** Runs SCROLL in the page, at most ms. */
  scroll(ms: number): Promise<void>;
}

/**
 * The settle rule both renderers follow once the page has loaded: probe when NetActivity
 * says so until the page has settled, the budget runs out ('settled' false) or the page never
 * answers ('stuck'). The first time the page is still (or settled, for a page that keeps its
 * network busy), it is scrolled to its end once (SCROLL), and settles from there: what loads
 * on scrolling is waited for like the rest. A document that goes away while asked is not a
 * stuck page: the page it went to is read as the first was, from its load, until it settles.
 */
export async function settleLoaded(page: SettlingPage, net: NetActivity, signal: AbortSignal, budgetMs: number, deadline: number, graceMs: number): Promise<'settled' | 'unsettled' | 'stuck'> {
  let loadedAt = Date.now();
  let scrolled = false;
  while (Date.now() < deadline) {
    const now = Date.now();
    if (net.probeDue(now)) {
      const st = await page.probe(deadline - now + graceMs);
      if (!st) return 'stuck';
      if (st === 'gone') {
        if (page.ended()) return 'unsettled';
        await page.nextDocument(deadline - Date.now());
        // The document it went to failed to load (the browser's error page): nothing to wait for.
        if (page.ended()) return 'unsettled';
        loadedAt = Date.now();
        scrolled = false;
        net.textMoved(loadedAt);
      } else {
        const settled = net.settled(st, Date.now() - loadedAt, budgetMs);
        if (!scrolled && (settled || net.still(st))) {
          scrolled = true;
          await page.scroll(Math.max(0, deadline - Date.now()));
          // What the scroll loads is waited for: the text must hold steady from here.
          net.textMoved();
        } else if (settled) {
          return 'settled';
        }
      }
    }
    signal.throwIfAborted();
    await sleep(TICK_MS);
  }
  return 'unsettled';
}

// Documents a page that keeps moving on (a reload every 150 ms) gets to be read in, once it
// has settled or its budget is over.
const REREADS = 5;

/**
 * What holds a page's parser: its scripts, and its stylesheets (the browser runs no script
 * after a stylesheet it has not got).
 */
export interface Blocking {
  scripts: number;
  stylesheets: number;
}

/**
 * A page that never answered by the end of its budget. One still waiting for its scripts or
 * stylesheets (their server sent the headers and then nothing) has its parser held by them,
 * not its JavaScript busy: it failed as "did not yield … keeps the browser busy", which sent
 * the user to raise a budget a file that never comes does not need.
 */
export function notYielded(budgetMs: number, waiting: Blocking, surface: Surface): FetchError {
  const budget = `the render budget (${Math.round(budgetMs / 1000)} s)`;
  const files = [waiting.scripts > 0 ? `${waiting.scripts} of its scripts` : '', waiting.stylesheets > 0 ? `${waiting.stylesheets} of its stylesheets` : ''].filter(Boolean);
  if (files.length === 0) return timeoutError(`the page's JavaScript did not yield within ${budget}`, RENDER_HINT.busy[surface]);
  const them = waiting.scripts + waiting.stylesheets === 1 ? 'it' : 'them';
  const hint = waiting.scripts > 0 ? RENDER_HINT.scriptHeld : RENDER_HINT.styleHeld;
  return timeoutError(`the page was still waiting for ${files.join(' and ')} when ${budget} ran out: their server never finished sending ${them}`, hint[surface]);
}

/** Every document the page went to went away before it could be read. */
export const movingPage = (): FetchError =>
  new FetchError(502, 'rendering failed: the page kept moving to another page as it was read', RENDER_HINT.reloads.cli, 'unreachable');

/**
 * Past the budget, a page gets this long to answer before its DOM is read (READ_MS); a
 * renderer stuck in a busy loop never does, and the target ends as a 504 this long after its
 * budget. The CLI's and the app's renderers both wait it.
 */
export const GRACE_MS = 2_000;

/**
 * How long reading a page that has just answered may take (SERIALIZE): as long as its DOM's
 * size needs, not what is left of the budget. A 10 MB DOM took 3.8–6.3 s to read on a loaded
 * 2-core machine, and with the 2 s left past the budget it failed as a page that "did not
 * yield" though it had answered PROBE in 20 ms; 100 MB took 33 s. A page that holds the read
 * (a script that runs as its DOM is laid out for reading) is let go of this long after.
 */
export const READ_MS = 30_000;

/**
 * Reads the page (`read`: SERIALIZE, at most ms) once it has settled or its budget ran out.
 * The page is asked first whether it answers, by `readBy`: a main thread stuck in the page's
 * own loop never does, and is not waited on for `readMs`. A document that went away as it was read (a page that reloads itself every
 * moment, a script that moves it on as the budget ends) is no page that "did not yield within
 * the render budget", as it read before (or, in the app, an app shell that "stayed empty"):
 * the document it went to is read once it has loaded and shows text (its scripts may draw it
 * a moment after), up to REREADS documents. `reread`: the html is of a document not watched
 * settle.
 */
export async function readPage(
  page: SettlingPage,
  read: (ms: number) => Promise<Serialized | 'gone' | undefined>,
  readBy: number,
  readMs = READ_MS,
): Promise<{ html: string | 'gone' | 'unread' | undefined; reread: boolean }> {
  const left = (): number => Math.max(0, readBy - Date.now());
  // A page that moves on as it is read may be read in the next document while that is still
  // being parsed: its body not there yet, or waiting on a script. Taken as it was, a page that
  // reloads itself failed as an app shell that "stayed empty when its scripts ran" (1 run in 3
  // on a busy machine). Such a document is waited for as one the page went to, while readBy
  // allows; one that finished parsing is read as it is, so an empty app shell is not kept waiting.
  let parsed: string | undefined;
  // 'unread': the page answered, and its document was not read within readMs.
  const readAnswering = async (): Promise<string | 'gone' | 'unread' | undefined> => {
    const st = await page.probe(left());
    if (st === undefined || st === 'gone') return st;
    const got = await read(readMs);
    if (got === undefined || got === 'gone') return got ?? 'unread';
    if (got[1] === 1 && left() > 0) {
      parsed = got[0];
      return 'gone';
    }
    return got[0];
  };
  let html = await readAnswering();
  let reread = false;
  for (let i = 0; html === 'gone' && i < REREADS && !page.ended(); i++) {
    reread = true;
    await page.nextDocument(left());
    while (left() > 0 && !page.ended()) {
      const st = await page.probe(left());
      if (st === undefined || (st !== 'gone' && st[1] >= THIN_CHARS)) break;
      if (st === 'gone') await page.nextDocument(left());
      else await sleep(TICK_MS);
    }
    html = await readAnswering();
  }
  // Still parsing when the time ran out (a script that never loads holds its parser): its html as it was.
  if (html === 'gone' && parsed !== undefined) html = parsed;
  return { html, reread };
}

/**
 * Follows the host of the page's main-frame navigation that last failed in the browser (its
 * error page shows): the host whose refusal by the guard decides between "blocked" and a site
 * that did not answer, for the settled page and for a load that throws alike.
 */
export function watchFailedNavigation(page: Page): () => string | undefined {
  let host: string | undefined;
  page.on('requestfailed', (r: Request) => {
    if (r.frame() === page.mainFrame() && r.isNavigationRequest()) host = bareHost(new URL(r.url()).hostname);
  });
  return () => host;
}

/**
 * The page's renderer process ended under it: a page that allocates until the tab runs out of
 * memory. Said as the app's render window says it. Before, such a page failed as "the page's
 * JavaScript did not yield" at the end of the budget (the crash read as a document that went
 * away, then as a page that never answered), or as "the browser could not load the page".
 */
export const pageCrashed = (surface: Surface = 'cli', why = 'out of memory, or a crash'): FetchError =>
  new FetchError(502, 'rendering failed: the page crashed the browser', `The browser's page process ended (${why}) while the page ran; ${RENDER_HINT.crashed[surface]}`, 'unreachable');

/**
 * A page that answered, whose document was not read within READ_MS: a DOM too big to read in
 * that time, or a script that keeps the page busy as it is read. Before, it failed as "the
 * page's JavaScript did not yield within the render budget", which raising the budget did not
 * change. The renderer is busy reading, so it is ended as a stuck one is.
 */
export const unreadPage = (readMs: number, surface: Surface): FetchError =>
  timeoutError(`the page answered, but its document could not be read within ${Math.round(readMs / 1000)} s (a very large page, or a script that keeps it busy)`, RENDER_HINT.download[surface]);

/**
 * Whether a main-frame answer is a document of the page's own that the browser showed: a 2xx
 * the guard did not stand in for. A redirect (3xx) shows nothing.
 */
export const shownDocument = (status: number, refused: boolean): boolean => !refused && status >= 200 && status < 300;

/**
 * An uncaught error of the page's scripts as a failure quotes it: one line, cut at
 * SCRIPT_ERROR_CHARS. A minified bundle's error can run to kilobytes (a JSON dump, a stack in
 * its message), which would bury what to do after it.
 */
export function scriptErrorWords(raw: string): string {
  // Electron's console says "Uncaught (in promise) Error: …" where playwright-core gives the Error.
  const line = raw.replace(/^Uncaught (?:\(in promise\) )?/, '').replace(/\s+/g, ' ').trim();
  return line.length > SCRIPT_ERROR_CHARS ? `${line.slice(0, cutEnd(line, SCRIPT_ERROR_CHARS)).trimEnd()}…` : line;
}
const SCRIPT_ERROR_CHARS = 160;

/**
 * The top page's scripts its server answered with an error (not the guard's refusal, said
 * apart): an app shell whose bundle was gone (a 404 after a deploy) failed as one that "stayed
 * empty when its scripts ran", which may "need a sign-in, cookies or more time", though none ran.
 */
export class ScriptsMissing {
  private count = 0;
  private status = 0;
  private asHtml = 0;
  private unreached = 0;
  /** The hosts of the unreached scripts, in the order their loads failed (the fetcher puts them in the page's): the message names them, so a user can check a firewall for them. */
  private unreachedHosts = new Set<string>();
  /** A script's answer; 0 where none came (its request failed: an https host that did not resolve or answer). */
  answered(status: number, refused: boolean, contentType = '', url = ''): void {
    if (refused) return;
    // A single-page app's server answers every address it does not know with its index page,
    // a removed bundle's too: 200 and text/html, which the browser runs as a script and
    // quotes as "SyntaxError: Unexpected token '<'" (a module it refuses without an error).
    if (status >= 200 && status < 300 && /^\s*text\/html\b/i.test(contentType)) this.asHtml++;
    if (status > 0 && status < 400) return;
    // 502 and 504 are what Sift's proxy answers itself for a host that did not resolve or
    // answer (statusOf in proxy.ts): no server said them. The corpus's Vue shell, its scripts on
    // a CDN this machine cannot reach, read "its server answered 3 of its scripts … HTTP 502".
    // They did not run either, which the page's judge weighs (scriptsUnreached).
    if (status === 0 || status === 502 || status === 504) {
      this.unreached++;
      const host = hostOf(url);
      if (host) this.unreachedHosts.add(host);
    } else {
      this.count++;
      this.status ||= status;
    }
  }
  result(): Pick<Rendered, 'scriptsMissing' | 'scriptsAsHtml' | 'scriptsUnreached' | 'scriptsUnreachedHosts'> {
    return {
      ...(this.count ? { scriptsMissing: { count: this.count, status: this.status } } : {}),
      ...(this.asHtml ? { scriptsAsHtml: this.asHtml } : {}),
      ...(this.unreached ? { scriptsUnreached: this.unreached } : {}),
      ...(this.unreachedHosts.size ? { scriptsUnreachedHosts: [...this.unreachedHosts] } : {}),
    };
  }
}

/** A URL's host (with its port where it has one), or '' where it does not parse. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** A CDP Runtime.exceptionThrown's details, as far as topFrameErrors reads them. */
interface ExceptionDetails {
  text: string;
  executionContextId?: number;
  exception?: { description?: string; value?: unknown };
}

/**
 * The first uncaught error of the top frame's own scripts (scriptErrorWords), over the page's
 * CDP session: playwright-core's 'pageerror' reports every frame's and every worker's, and an
 * ad's or a widget's iframe that threw was quoted as the page's script failing ("open it in a
 * browser"), where the page's shell stayed empty for another reason. A cross-site iframe or a
 * worker is a target of its own, whose errors never reach this session; a same-site iframe's
 * are told apart by the frame of the context they were thrown in.
 */
export async function topFrameErrors(cdp: CDPSession): Promise<() => string | undefined> {
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const top = frameTree.frame.id;
  const topContexts = new Set<number>();
  let first: string | undefined;
  cdp.on('Runtime.executionContextCreated', ({ context }) => {
    const aux = context.auxData as { frameId?: string } | undefined;
    if (aux?.frameId === top) topContexts.add(context.id);
  });
  cdp.on('Runtime.exceptionThrown', ({ exceptionDetails: d }: { exceptionDetails: ExceptionDetails }) => {
    if (first !== undefined || d.executionContextId === undefined || !topContexts.has(d.executionContextId)) return;
    // The error's name and message, as playwright-core's pageerror made them: its stack cut off.
    const said = d.exception ? (d.exception.description ?? String(d.exception.value)) : d.text;
    first = scriptErrorWords(said.split(/\n {4}at /)[0] ?? said);
  });
  await cdp.send('Runtime.enable');
  return () => first;
}

/** The main document's load event, counted as a request in flight from its DOMContentLoaded. */
export const LOAD = Symbol('load');

/**
 * Loads a page and waits until it settles: DOMContentLoaded, then no request in flight (the
 * load event counted as one; a hung one not: NetActivity) and no DOM change for
 * SETTLE_IDLE_MS, or the budget runs out. 'stuck' when the page's main
 * thread never answers (a busy loop): nothing can be read from it. `refusedHost` says
 * whether the guard refused a host: a navigation that ends on the browser's error page is
 * the guard's doing only then (https goes through a CONNECT tunnel, whose refusal and whose
 * failure to resolve or connect the browser reports alike); `failedHost` is the host whose
 * navigation failed (watchFailedNavigation).
 */
export async function settle(
  page: Page,
  url: string,
  signal: AbortSignal,
  budgetMs: number,
  graceMs: number,
  refusedHost: (host: string) => boolean,
  failedHost: () => string | undefined,
  scriptError: () => string | undefined,
  readMs = READ_MS,
  net = new NetActivity(budgetMs),
): Promise<Rendered | 'stuck' | 'unread'> {
  const deadline = Date.now() + budgetMs;
  // A stream of server-sent events stays open as long as the page does: counted, it kept the
  // network busy, and a live page (its article there at once) was read only at the end of the
  // budget, as render_partial. Its messages change the DOM, which the settle rule watches.
  const counted = (r: Request): boolean => r.resourceType() !== 'eventsource';
  const up = (r: Request): void => {
    if (counted(r)) net.started(r, r.resourceType());
  };
  const down = (r: Request): void => net.ended(r);
  page.on('request', up);
  page.on('requestfinished', down);
  page.on('requestfailed', down);
  // The main frame's last document: a redirect or location.href moves it elsewhere.
  let mainStatus = 0;
  let refused = false;
  // A document of the page's own was shown (shownDocument): where the page goes on from it is
  // the page's script's doing, not a redirect of its load.
  let shown = false;
  const missing = new ScriptsMissing();
  // A script that was answered and then failed (Chromium blocks a 404's text/plain body, and
  // reports the request failed too) is the answer's: counted again as one whose host did not
  // answer, a missing bundle read "could not be loaded: the server … did not answer".
  const answeredScripts = new WeakSet<Request>();
  const onResponse = (r: Response): void => {
    if (r.frame() === page.mainFrame() && r.request().resourceType() === 'script') {
      answeredScripts.add(r.request());
      missing.answered(r.status(), r.headers()[GUARD_HEADER] === 'refused', r.headers()['content-type'], r.url());
    }
    if (r.frame() !== page.mainFrame() || !r.request().isNavigationRequest()) return;
    mainStatus = r.status();
    refused = r.headers()[GUARD_HEADER] === 'refused';
    shown ||= shownDocument(mainStatus, refused);
  };
  page.on('response', onResponse);
  const onScriptFailed = (r: Request): void => {
    if (r.frame() === page.mainFrame() && r.resourceType() === 'script' && !answeredScripts.has(r)) missing.answered(0, false, '', r.url());
  };
  page.on('requestfailed', onScriptFailed);
  let crashed = false;
  const onCrash = (): void => void (crashed = true);
  page.on('crash', onCrash);
  // A script that sends the browser to a file while the page loads (location.href to an
  // attachment) turns that navigation into a download, refused, and the page stays and
  // loads; but Playwright 1.65's goto never reports its load (the page's readyState was
  // "complete" within 0.5 s), and such a page was read only at the end of the budget, as
  // render_partial. The page's settling is then watched from the download on.
  let onDownload = (): void => {};
  const downloaded = new Promise<void>((resolve) => (onDownload = resolve));
  page.on('download', onDownload);
  // The page is read from its DOMContentLoaded on; its load event counts as a request in flight
  // until it fires (a page may build its article in onload, after its images), and like one it
  // stops counting when it hangs. Waiting for the load itself, an image or script whose server
  // never answered held every such page until the proxy gave up on it (10 s) or the budget ran out.
  const onDocument = (): void => net.started(LOAD, 'document');
  const onLoad = (): void => net.ended(LOAD);
  page.on('domcontentloaded', onDocument);
  page.on('load', onLoad);
  const onAbort = (): void => void page.close().catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    // Cancelled while the page's context was being made: an abort before the listener never
    // calls it, and the page was loaded up to its DOMContentLoaded (11.3 s for one whose
    // parser a script held, stored cancelled only then).
    signal.throwIfAborted();
    let loaded = false;
    try {
      const going = page.goto(url, { waitUntil: 'domcontentloaded', timeout: budgetMs });
      going.catch(() => {});
      await Promise.race([going, downloaded]);
      // The page itself was the download: nothing loaded, and goto says why.
      if (page.url() === 'about:blank') await going;
      loaded = true;
    } catch (err) {
      signal.throwIfAborted();
      if (crashed) throw pageCrashed();
      if ((err as Error).name !== 'TimeoutError') throw err;
      // No document at all: the server never answered the browser's request for the page
      // (the static fetch's it had). Nothing of the page ran, so this is not a page keeping
      // the browser busy, as reading it would have said ('stuck', 'did not yield').
      if (page.url() === 'about:blank') throw timeoutError(`the server did not send the page to the browser within the render budget (${Math.round(budgetMs / 1000)} s)`);
    }
    const settling: SettlingPage = {
      probe: (ms) => probe(page, ms),
      ended: () => crashed || refused || page.isClosed() || /^chrome-error:/.test(page.url()),
      nextDocument: async (ms) => void (await bounded(page.waitForLoadState('domcontentloaded'), ms)),
      scroll: async (ms) => void (await bounded(page.evaluate(SCROLL), ms)),
    };
    let settled = false;
    if (loaded) {
      const out = await settleLoaded(settling, net, signal, budgetMs, deadline, graceMs);
      if (crashed) throw pageCrashed();
      if (out === 'stuck') return 'stuck';
      settled = out === 'settled';
    }
    const read = (ms: number): Promise<Serialized | 'gone' | undefined> => bounded((page.evaluate(SERIALIZE) as Promise<Serialized>).catch(() => 'gone' as const), ms);
    const { html, reread } = await readPage(settling, read, Math.max(deadline, Date.now()) + graceMs, readMs);
    signal.throwIfAborted();
    if (crashed) throw pageCrashed();
    const errorPage = /^chrome-error:/.test(page.url());
    const gone = refused || errorPage;
    // A page that sent the reader to a dead or misspelled site failed as "blocked", with a
    // hint to allow private addresses, which changed nothing.
    const failed = failedHost();
    const unreachable = errorPage && !refused && failed !== undefined && !refusedHost(failed);
    // A page that went away for good (the browser quit under it) is said as the caller finds it.
    if (html === 'gone' && !gone && !settling.ended()) throw movingPage();
    if (html === 'unread' && !gone) return 'unread';
    if ((html === undefined || html === 'gone') && !gone) return 'stuck';
    const thrown = scriptError();
    return {
      finalUrl: page.url(),
      html: html === 'gone' || html === 'unread' ? '' : (html ?? ''),
      status: mainStatus,
      // A document read as soon as it showed text was not watched settle.
      partial: !settled || reread,
      ...(unreachable ? { unreachable: true } : gone ? { refused: true, ...(shown ? { left: true } : {}) } : {}),
      // An app whose bundle throws stays an empty shell: its first error says why.
      ...(thrown ? { scriptError: thrown } : {}),
      ...missing.result(),
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
    page.off('response', onResponse);
    page.off('requestfailed', onScriptFailed);
    page.off('crash', onCrash);
    page.off('download', onDownload);
    page.off('domcontentloaded', onDocument);
    page.off('load', onLoad);
    page.off('request', up);
    page.off('requestfinished', down);
    page.off('requestfailed', down);
  }
}
