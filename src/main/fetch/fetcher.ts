import { OptionsSchema, type Options, type RenderMode, type Result, type Target } from '../../shared/types';
import { dispositionFileName, HttpClient, mapError, upstreamError, type HttpResponse } from './client';
import { decodeText, namesNoCharset } from './charset';
import type { Article } from './html';
import { hasScriptBundles, inScriptOrder, scriptHosts, shouldRender } from './render/decide';
import { GuardProxy } from './render/proxy';
import { emptyShellHint, leftWords, refusalWords, scriptsRefusedHint, type GuardRefusals } from './render/refusals';
import { ChromiumRenderer } from './render/chromium';
import { movingPage } from './render/settle';
import type { BrowserInfo, RenderHint, Rendered, Renderer, RendererFactory } from './render/types';
import { ComputePool } from './compute';
import { classifyPage, drawnByScripts, hasAppRoot, isNotFoundText, type Classification, type ClassifyInput, type PageReason } from './classify';
import { badOption, blocked, DEADLINE_HINT, EXTRACT_TIMEOUT_HINT, FetchError, pageError, scriptFailed, scriptsAsHtml, scriptsMissing, scriptsUnreached, timeoutError, waitWords } from './errors';
import { articlePart, decodeHtml, extractBody, prefetchHtml, type Decoded, type Extracted } from './extract';
import { HtmlPool, type HtmlPoolOptions } from './html-pool';
import { packedMeta, unwrapGzip } from './packed';
import { Gate, RENDERING_BUSY } from './gate';
import { linkSignals, type LinkedSignal } from './linked-signal';
import { systemResolver, type ResolvedAddress } from './guard';
import { PdfPool, type OnPages } from './pdf-pool';
import { SoftNotFoundProbe } from './probe';
import { classify as sniffKind } from './sniff';
import { defaultFetchSettings, type FetchSettings } from './settings';
import { validateUrl, withRoute } from './url';
import { routeOf } from '../../shared/urllist/url';
import { isJsonObject } from '../../shared/json';
import { ARCHIVE_BLOCKED, ARCHIVE_UNSET, hintOn, RENDER_HINT, surfaceOf, type Surface } from '../../shared/hints';
import { conflictMessage, optionsConflict, validateOptions } from '../../shared/urllist/options';

export interface Caller {
  name: string;
  /** The batch job the fetch belongs to (the runner passes it): the soft-404 probe's scope. */
  jobId?: string;
}

export interface FetcherDeps {
  /** Name resolution; tests inject one so no test asks a real DNS server. */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
  now?: () => number;
  /** One structured line per target; never carries a URL or host name. A function or a pino logger. */
  log?: ((line: Record<string, unknown>) => void) | { info(obj: object, msg?: string): void };
  /** Worker threads for PDFs (default 2: the machines Sift targets have 2+ cores). */
  pdfWorkers?: number;
  /** The browser that renders pages (SPEC §5.10): Electron's in the app; playwright-core's Chromium by default. */
  renderer?: RendererFactory;
  /** How long the soft-404 probe may take (default PROBE_BUDGET_MS); tests shorten it. */
  probeBudgetMs?: number;
  /** Which pages the HTML worker reads and its heap (html-pool.ts); tests change both. */
  html?: HtmlPoolOptions;
}

/** How a fetch of one target is run: as batch work (the PDF pool's NAME/batch slot), and who hears a long PDF's reading go on. */
export interface FetchContext {
  batch?: boolean;
  /** The caller's time per URL (the batch wiring's, from Settings), counted from the fetch slot as ours is. */
  deadlineMs?: number;
  onPages?: OnPages;
}

export interface Fetcher {
  /** Resolves when the HTTP client is loaded (it loads at the first fetch, not at start). */
  ready(): Promise<void>;
  fetchTarget(signal: AbortSignal, caller: Caller, target: Target, ctx?: FetchContext): Promise<Result>;
  extractBuffer(buf: Buffer | Uint8Array, contentType: string, options: Options, ctx?: { caller?: Caller; url?: string; signal?: AbortSignal; onPages?: OnPages }): Promise<Result>;
  updateSettings(s: Partial<FetchSettings>): void;
  settings(): FetchSettings;
  gate: { acquire(signal: AbortSignal): Promise<() => void>; inFlight(): number; waiting(): number };
  /** The render slots (renderPages at once), which a rendered page takes before its fetch slot. */
  renderGate: { acquire(signal: AbortSignal): Promise<() => void>; waiting(): number };
  /** The browser pages would render in, or why there is none (for Settings); never starts it. */
  browser(): Promise<BrowserInfo>;
  /** The guarding proxy rendered pages go through (tests watch what it refuses). */
  proxy: GuardProxy;
  pdf: PdfPool;
  /** Reads HTML pages, large ones in a worker (tests watch it). */
  html: HtmlPool;
  close(): Promise<void>;
}

/**
 * After these failures an archived snapshot may still have the page (SPEC §5.6): a page
 * gone or failing, and (§5.9) an anti-bot check, a sign-in wall or a soft 404 in its place.
 * A 503 in a batch is left to the runner, which asks again for up to a minute (the site may
 * only be busy); a fetch of one target (`sift fetch`, the app's preview) is never asked again,
 * so there a 503 is as final as a 500: a dead site's host that answers every path with 503
 * came back "busy" with no archived copy, though the user had asked for one.
 */
export function recoverable(err: unknown, retried = true): boolean {
  if (!(err instanceof FetchError)) return false;
  if (err.reason === 'challenge' || err.reason === 'login' || err.reason === 'soft404') return true;
  if (err.reason === 'consent' || err.reason === 'needs_js') return false;
  if (err.status === 503) return !retried;
  // A body that does not decompress is the server's fault as a 5xx is; an archived copy is whole.
  return err.status === 404 || err.status === 410 || err.status >= 500 || err.code === 'dns' || err.code === 'corrupt_body';
}

/** What the page classification made of a static answer that did not fail it. */
interface Verdict {
  warnings: string[];
  /** An app shell (§5.9 needs_js) that rendering may fill; it fails as needs_js if it cannot. */
  needsJs: boolean;
  /**
   * The judged answer decoded, when it is HTML: the render decision and the extraction read
   * this instead of decoding the body again.
   */
  decoded?: Decoded;
  /**
   * The host answers every path with this page, which is to be rendered before it is judged:
   * an app (its root and scripts) that may route by path, or any page under render=always.
   * Rendered, a page its scripts drew nothing into is the catch-all (soft404); one they drew a
   * page into is judged as that page.
   */
  catchAll?: boolean;
  /** The page as its server sent it is a page of its own: no stand-in, not thin. */
  standsAlone?: boolean;
  /** What the page as its server sent it was judged (a check, a sign-in wall), before the browser ran it: under render=always, or a check rendered under auto. */
  judged?: { reason: PageReason; signal: string };
}

/** Which HTML answers are judged: an HTML error page, or any HTML a 2xx brought. */
const isHtml = (contentType: string, body: Uint8Array): boolean => sniffKind(contentType, body) === 'html';

/** A success whose whole text is "404 page not found" (a plain-text answer) is not the document either. */
const isNotFoundPlain = (res: HttpResponse): boolean =>
  res.body.byteLength <= 1024 && /^text\/plain\b/i.test(res.contentType) && isNotFoundText(decodeText(res.body, res.contentType, true).text);

/** A path whose name says it is a document, data or media, not a page. */
const NOT_A_PAGE = /\.(?:pdf|json|txt|csv|tsv|xml|rss|atom|ya?ml|zip|gz|tgz|bz2|xz|7z|png|jpe?g|gif|webp|avif|svg|ico|mp[34]|m4a|webm|ogg|wav|docx?|xlsx?|pptx?|odt|epub)$/i;

/**
 * Whether judge() may ask the URL's host for a random path: a page below the root (the
 * root is no soft 404) whose name does not say it is a document or data.
 */
function mayBeJudgedPage(url: string): boolean {
  const { pathname } = new URL(url);
  return pathname !== '/' && !NOT_A_PAGE.test(pathname);
}

/**
 * Whose soft-404 probes a fetch shares: its job's, else its caller's. The ask made beside a
 * target and the judging of its answer must use the same one, or the first is never used.
 */
const probeScope = (caller: Caller): string => caller.jobId ?? caller.name;

/**
 * How long the soft-404 probe may take before it counts as no answer (the target is then
 * judged without it). It had the target's whole deadline: a host that never answers a path it
 * does not know held a page it had sent in 10 ms for the 30 s headers timeout, and one that
 * trickles such a path failed it as a timeout at 210 s. A host's 404 comes as fast as its pages.
 */
const PROBE_BUDGET_MS = 10_000;

/**
 * How long an archive service that did not answer is not asked again: a minute, the runner's
 * retry window, so a list of dead links finds out once per minute, not once per link (each
 * waited out the 30 s headers timeout: 100 links, 4 at once, took 12 minutes to say nothing).
 */
const ARCHIVE_SILENT_MS = 60_000;

/**
 * A Wayback-style snapshot URL (the Wayback Machine's, pywb's: …/<timestamp><modifier>/<url>)
 * in its parts: the page as a person views it in the archive, and the captured URL.
 */
function waybackParts(snapshot: string): { timestamp: string; page: string; raw: string; original: string } | undefined {
  const u = new URL(snapshot);
  const m = /^(.*\/)(\d{4,14})(?:[a-z]{2}_)?\/(https?:\/\/?.+)$/i.exec(u.pathname + u.search);
  if (!m) return undefined;
  const [, prefix = '', timestamp = '', captured = ''] = m;
  // A path keeps "https://" as it came, but some proxies fold it to "https:/".
  const original = captured.replace(/^(https?:)\/(?!\/)/i, '$1//');
  if (!URL.canParse(original)) return undefined;
  return { timestamp, page: `${u.origin}${prefix}${timestamp}/${original}`, raw: `${u.origin}${prefix}${timestamp}id_/${original}`, original };
}

/**
 * The snapshot as the site sent it: the `id_` replay, without the archive's toolbar and with
 * the page's own links. The plain replay rewrites every link to point into the archive.
 */
const rawSnapshot = (snapshot: string): string => waybackParts(snapshot)?.raw ?? snapshot;

function checkOptions(options: unknown): Options {
  const r = OptionsSchema.safeParse(options ?? {});
  if (!r.success) throw badOption(`invalid ${validateOptions(options ?? {}) ?? 'options'}`, 'Options are mode, question, pages, grep, jq, context, recover and render.');
  const clash = optionsConflict(r.data);
  if (clash) throw badOption(conflictMessage(clash), clash.hint);
  return r.data;
}

/** A page's own warnings that say more than "thin" of a short text: it was empty, or the opening of an article behind a wall. */
const SAYS_MORE_THAN_THIN = new Set(['empty', 'paywall', 'teaser']);

const isTimeoutAbort = (signal: AbortSignal): boolean =>
  signal.aborted && (signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError';

/**
 * A rendered page whose last document answered an error. When the browser was sent on (a
 * script's location.href, a redirect only the browser got) the URL itself loads: "HTTP 404",
 * "the page is gone; the recover option looks for an archived copy" sent the user to an
 * archive of a page that is there. 429/503 stay busy, as the runner asks again later.
 */
function renderedStatusError(status: number, url: string, finalUrl: string): FetchError {
  const err = upstreamError(status, {});
  if (err.code === 'busy' || !/^https?:/.test(finalUrl) || finalUrl.split('#')[0] === url.split('#')[0]) return err;
  return new FetchError(
    err.status,
    `the rendered page went (by a redirect or a script) to a page that answered ${err.msg}`,
    RENDER_HINT.wentOn.cli,
    err.code,
  );
}

/**
 * A rendered page whose script sent the browser to an empty document (location.href =
 * 'about:blank', as a script that turns automated browsers away or fails does): it came back
 * ok with no content and marked thin, as if the page were short. Its scripts left nothing to
 * read, SPEC §5.9's needs_js for a rendered page; its HTML as the server sends it may hold the text.
 */
const leftForBlank = (): FetchError =>
  new FetchError(
    422,
    'needs JavaScript: the page\'s script sent the browser to an empty page (about:blank), so nothing of the page was left to read',
    RENDER_HINT.blank.cli,
    'needs_js',
  );

/**
 * What renderPage gives back: the page as the browser shows it, or (`left`) a page of its own
 * that loaded and then went on to an address the guard refuses, which stands as its server
 * sent it; there is no rendered HTML to read then.
 */
type RenderOutcome =
  | { kind: 'shown'; html: string; finalUrl: string; partial: boolean; ms: number; guardRefused?: GuardRefusals; scriptError?: string; scriptsMissing?: Rendered['scriptsMissing']; scriptsAsHtml?: number; scriptsUnreached?: number; scriptsUnreachedHosts?: string[] }
  | { kind: 'left'; guardRefused?: GuardRefusals };

/**
 * A thin app page (an app's root in it) that rendered as its server sent it because the guard
 * refused its scripts' host: SPEC §5.9's needs_js, as its scripts could not run. The scripts'
 * host, not the page's thinness, is what the user can change.
 */
function scriptsRefused(staticHtml: string, base: string, rendered: string, refusals: GuardRefusals | undefined, warnings: readonly string[]): refusals is GuardRefusals {
  if (!refusals || !warnings.includes('thin') || !hasAppRoot(staticHtml) || drawnByScripts(staticHtml, rendered)) return false;
  return refusedScriptHosts(staticHtml, base, refusals).length > 0;
}

/** The refused hosts the page's HTML loads a script from. */
const refusedScriptHosts = (staticHtml: string, base: string, refusals: GuardRefusals): string[] => {
  const own = new Set(scriptHosts(staticHtml, base));
  return refusals.hosts.filter((h) => own.has(h));
};

const scriptsRefusedError = (refusals: GuardRefusals, staticHtml: string, base: string, surface: Surface): FetchError =>
  new FetchError(422, "needs JavaScript: the page's scripts are on an address Sift does not fetch, so the browser could not draw its content", scriptsRefusedHint(refusals, refusedScriptHosts(staticHtml, base, refusals), surface), 'needs_js');

const WENT_TO_REFUSED = 'The rendered page went (by a redirect or a script) to an address Sift does not fetch';

/** The fetch pipeline of SPEC §5: URL check, gate, guarded HTTP, extraction, recovery. */
export function createFetcher(initial: Partial<FetchSettings> = {}, deps: FetcherDeps = {}): Fetcher {
  let settings: FetchSettings = { ...defaultFetchSettings(), ...initial };
  const now = deps.now ?? Date.now;
  const sink = deps.log;
  const log = (line: Record<string, unknown>): void => {
    if (typeof sink === 'function') return sink(line);
    // pino writes its message as "msg": the line's own msg given as both made the key twice.
    const { msg, ...fields } = line;
    sink?.info(fields, typeof msg === 'string' ? msg : 'fetch');
  };
  const client = new HttpClient(() => settings, deps.lookup ?? systemResolver);
  const noBrowser = (info: Extract<BrowserInfo, { ok: false }>, mode: string): FetchError =>
    // The reason follows the code: no_browser is a bad_option (render=always cannot be met), needs_js its own.
    mode === 'always'
      ? new FetchError(422, `rendering unavailable: ${info.why}`, info.hint, 'no_browser')
      : new FetchError(422, 'needs JavaScript: the page shows its content only after JavaScript runs, and no browser is available to run it', `${info.why}. ${info.hint}`, 'needs_js');

  /**
   * Renders a page that the static fetch found to need it: a render slot (renderPages at
   * once), then a gate slot like any fetch, then the browser under the render budget.
   * `standsAlone`: the page as its server sent it is a page of its own (Verdict.standsAlone),
   * which decides what a page that left for a refused address is.
   */
  async function renderPage(url: string, signal: AbortSignal, deadline: AbortSignal, hint: RenderHint, standsAlone: boolean): Promise<RenderOutcome> {
    const linked = linkSignals([signal, deadline]);
    const combined = linked.signal;
    // A page whose time ran out before it got its turn (the render slots wait 2 × the budget
    // + 5 s, 35 s by default, longer than a short "Time per URL") is busy, which the runner
    // retries, as a slot's own wait says: it was told "timeout: waiting for a render slot",
    // which sent the user to raise a time it never used.
    const releaseRender = await renderGate.acquire(combined).catch((err: unknown) => {
      linked.dispose();
      throw deadline.aborted ? renderGate.busy() : err;
    });
    try {
      const release = await gate.acquire(combined).catch((err: unknown) => {
        throw deadline.aborted ? gate.busy() : err;
      });
      // render_ms is the render's own: the waits for both slots were shown as rendering time.
      const started = now();
      try {
        const r = await renderer.render(url, combined, settings.renderBudgetMs, hint);
        // Once loaded, its script sent the browser to a refused address: a file to download
        // from another host leaves the page where it is in a browser, and was failed as
        // "blocked". A page of its own stands as its server sent it (what the browser holds
        // now is the guard's refusal, not the page); a page that only says it moved, or an app
        // shell, is the refused address's, as is a page whose own load was refused.
        if (r.refused) {
          if (!r.left || !standsAlone) throw blocked(WENT_TO_REFUSED);
          return { kind: 'left', ...(r.guardRefused ? { guardRefused: r.guardRefused } : {}) };
        }
        if (r.unreachable) {
          throw new FetchError(502, 'the rendered page went (by a redirect or a script) to a site that did not answer', 'The page sends the reader to a host that does not resolve or answer; open it in a browser to see where it goes.', 'unreachable');
        }
        if (/^about:/i.test(r.finalUrl)) throw leftForBlank();
        if (r.status >= 400) throw renderedStatusError(r.status, url, r.finalUrl);
        return { kind: 'shown', html: r.html, finalUrl: /^https?:/.test(r.finalUrl) ? r.finalUrl : url, partial: r.partial, ms: Math.round(now() - started), ...(r.guardRefused ? { guardRefused: r.guardRefused } : {}), ...(r.scriptError ? { scriptError: r.scriptError } : {}), ...(r.scriptsMissing ? { scriptsMissing: r.scriptsMissing } : {}), ...(r.scriptsAsHtml ? { scriptsAsHtml: r.scriptsAsHtml } : {}), ...(r.scriptsUnreached ? { scriptsUnreached: r.scriptsUnreached } : {}), ...(r.scriptsUnreachedHosts ? { scriptsUnreachedHosts: r.scriptsUnreachedHosts } : {}) };
      } finally {
        release();
      }
    } catch (err) {
      // Whatever a renderer made of a cancel (a slot whose set-up the cancel cut short fails as
      // "could not be set up", 502, stored as an internal error), the target was cancelled.
      if (signal.aborted) throw signal.reason ?? err;
      if (err instanceof FetchError) throw err;
      if (deadline.aborted) throw timeoutError("the target's deadline passed while rendering", DEADLINE_HINT);
      throw err;
    } finally {
      releaseRender();
      linked.dispose();
    }
  }

  const gate = new Gate(settings.gateSize, settings.gateWaitMs);
  const pdf = new PdfPool(deps.pdfWorkers ?? 2);
  const compute = new ComputePool(2, () => settings.jqLimitMs);
  const htmlPool = new HtmlPool(deps.html);
  const probe = new SoftNotFoundProbe(now);

  /**
   * Honest outcomes (SPEC §5.9): throws the page's reason when an HTML answer is not the
   * content; returns the warnings of one that is. An error answer's page may turn a plain
   * upstream error into a challenge or a sign-in wall (and a challenge's 503 stops being busy).
   */
  async function judge(res: HttpResponse, caller: Caller, signal: AbortSignal, deadline: AbortSignal, render: RenderMode, route: string): Promise<Verdict> {
    if (!isHtml(res.contentType, res.body)) {
      if (isNotFoundPlain(res)) throw pageError('soft404', res.status);
      return { warnings: [], needsJs: false };
    }
    const decoded = decodeHtml(res.body, res.contentType);
    const html = decoded.text;
    const input = { html, status: res.status, url: res.finalUrl };
    const classify = (given: ClassifyInput): Promise<Classification> => underDeadline(signal, deadline, (s) => htmlPool.classify(given, s));
    let c = await classify(input);
    // A route target's path is its app's, which a host answering every path with the app
    // (as hash-routed apps are served) has whatever the route: the fragment names the page.
    if (!c.reason && !route && new URL(res.finalUrl).pathname !== '/') {
      // The random-path probe: a host that answers every path with this same page has no such page.
      const other = await probe.randomPathPage(probeScope(caller), res.url, res.finalUrl, (u) => probeDownload(u, signal, deadline), signal);
      if (other) {
        const similarity = await underDeadline(signal, deadline, (s) => htmlPool.similarity(html, other.page, other.echoes, s));
        c = await classify({ ...input, randomPathSimilarity: similarity });
      }
    }
    // An app the host answers every path with: each real route of a single-page app that
    // routes by path (behind a host's fallback to its index page) read as the same page, and
    // failed as a soft 404 without being run. Its scripts tell a route they draw from a path
    // they do not know; without them (render=never) the page is the app's to show.
    if (c.signals?.[0] === 'random-path-twin' && (render === 'always' || (hasAppRoot(html) && hasScriptBundles(html)))) {
      if (render === 'never') throw pageError('needs_js', res.status, false, '', surfaceOf(caller.name));
      return { warnings: c.warnings, needsJs: false, decoded, catchAll: true };
    }
    // An app shell is rendering's to fix (SPEC §5.10), and under render=always every page is
    // judged again once rendered: a JavaScript check may clear in the browser.
    if (c.reason === 'needs_js' && render !== 'never') return { warnings: c.warnings, needsJs: true, decoded };
    // So is a check whose script sets its cookie and loads the page again: rendered under auto
    // as a shell is, it is the page once it clears, and stays the check if it does not. It
    // failed as a render timeout ("keeps the browser busy") or as a shell whose script threw.
    if (c.reason === 'challenge' && c.signals?.[0] === 'cookie-reload' && render === 'auto') return { warnings: c.warnings, needsJs: true, decoded, judged: { reason: c.reason, signal: c.signals[0] } };
    if (c.reason && render !== 'always') throw pageError(c.reason, res.status, false, c.signals?.[0], surfaceOf(caller.name));
    return { warnings: c.warnings, needsJs: false, decoded, standsAlone: !c.reason && !c.warnings.includes('thin'), ...(c.reason ? { judged: { reason: c.reason, signal: c.signals?.[0] ?? '' } } : {}) };
  }

  /** An upstream error whose HTML page is a challenge, a sign-in wall … becomes that reason. */
  function judgeErrorPage(err: unknown): unknown {
    if (!(err instanceof FetchError) || !err.page || !isHtml('text/html', err.page)) return err;
    const c = classifyPage({ html: decodeText(err.page, 'text/html', true).text, status: err.status, url: '' });
    return c.reason && c.reason !== 'soft404' && c.reason !== 'needs_js' ? pageError(c.reason, err.status, false, c.signals?.[0]) : err;
  }

  const resolver = deps.lookup ?? systemResolver;
  const proxy = new GuardProxy(() => settings, resolver, () => settings.connectTimeoutMs);
  const renderer: Renderer = (deps.renderer ?? ((env) => new ChromiumRenderer(env)))({
    proxy: () => proxy.start(),
    proxyEvents: (listener) => proxy.on(listener),
    proxySession: () => proxy.session(),
    policy: () => settings,
    chromiumPath: () => settings.chromiumPath,
    userAgent: () => settings.userAgent,
    log,
  });
  // A render waits for one of renderPages slots for up to two budgets: longer than a fetch
  // waits for the gate, since a slot frees only when a whole render (≤ budget) ends.
  const renderWaitMs = (): number => settings.renderBudgetMs * 2 + 5_000;
  const renderGate = new Gate(settings.renderPages, renderWaitMs(), RENDERING_BUSY);

  /** Runs work under the target's deadline: its expiry is a 504, not a hang. */
  async function underDeadline<T>(signal: AbortSignal, deadline: AbortSignal, work: (combined: AbortSignal) => Promise<T>): Promise<T> {
    const linked = linkSignals([signal, deadline]);
    try {
      return await work(linked.signal);
    } catch (err) {
      if (err instanceof FetchError) throw err;
      // Ours, or the caller's own (the batch wiring's fires a moment before ours): either way
      // the server had answered, and the hint points at the extraction, not at the server.
      if (deadline.aborted || isTimeoutAbort(signal)) throw timeoutError("the target's deadline passed while extracting", EXTRACT_TIMEOUT_HINT);
      throw err;
    } finally {
      linked.dispose();
    }
  }

  /** The soft-404 probe's GET: the target's, under PROBE_BUDGET_MS as well. */
  async function probeDownload(url: string, signal: AbortSignal, deadline: AbortSignal): Promise<HttpResponse> {
    const budget = linkSignals([deadline], deps.probeBudgetMs ?? PROBE_BUDGET_MS);
    try {
      return await download(url, signal, budget.signal);
    } finally {
      budget.dispose();
    }
  }

  /**
   * GETs a URL. A gzip file that is the document comes back unpacked (`packed`: its size as
   * sent), so the page judge, the render decision and extraction all read what it holds.
   */
  async function download(url: string, signal: AbortSignal, deadline: AbortSignal): Promise<HttpResponse & { packed?: number }> {
    let res: HttpResponse;
    try {
      res = await client.get(url, signal, deadline);
    } catch (err) {
      throw mapError(err, signal, deadline, 'fetching');
    }
    const gz = unwrapGzip(res.body, res.contentType, res.finalUrl, settings.maxBodyBytes);
    return gz ? { ...res, body: gz.body, contentType: gz.contentType, packed: res.body.byteLength } : res;
  }

  /**
   * Until when the archive service asked not to be asked (its 429/503 Retry-After): a batch
   * of dead links asked it once per target, and went on asking through its refusals. Kept
   * for the service that asked: another one set in Settings is asked at once.
   */
  let archiveQuiet: { service: string; until: number; why: 'asked' | 'silent' } = { service: '', until: 0, why: 'asked' };
  const quietUntil = (until: number, why: 'asked' | 'silent'): void => {
    const service = settings.archiveService;
    if (archiveQuiet.service !== service || until > archiveQuiet.until) archiveQuiet = { service, until, why };
  };
  /** Notes the archive's 429/503 and how long it asked for; gives its message. */
  const archiveBusy = (err: FetchError): string => {
    // A 429 without a Retry-After: a minute, as the Wayback Machine counts its limit per minute.
    quietUntil(now() + (err.retryAfterMs ?? (err.status === 429 ? 60_000 : 0)), 'asked');
    return err.msg;
  };

  /**
   * Looks the URL up in the archive service (SPEC §5.6) and downloads its closest snapshot as
   * the site sent it: `base` is the page's own URL, the base of its relative links.
   */
  async function recover(url: string, original: FetchError, signal: AbortSignal, deadline: AbortSignal, surface: Surface): Promise<{ res: HttpResponse; base: string; warnings: string[]; snapshot: Record<string, unknown> }> {
    const noCopy = (why: string): FetchError => {
      const hint = original.hintAfterRecovery;
      return new FetchError(original.status, original.msg, `${hint ? `${hint} ` : ''}No archived copy: ${why}.`, original.code, original.retryAfterMs);
    };
    if (deadline.aborted) throw noCopy("the target's deadline had passed before the archive could be asked");
    const quiet = archiveQuiet.service === settings.archiveService ? archiveQuiet.until - now() : 0;
    if (quiet > 0) {
      throw noCopy(
        archiveQuiet.why === 'asked'
          ? `the archive service asked Sift to wait ${waitWords(quiet)} before asking again; retry these then`
          : `the archive service did not answer a moment ago, so Sift waits ${waitWords(quiet)} before asking it again; retry these then`,
      );
    }
    // Settings take an empty one for "never look up archived copies": it threw here, an internal error.
    if (!URL.canParse(settings.archiveService)) throw noCopy(ARCHIVE_UNSET[surface]);
    const lookup = new URL(settings.archiveService);
    lookup.searchParams.set('url', url);
    let res: HttpResponse;
    try {
      res = await download(lookup.toString(), signal, deadline);
    } catch (err) {
      if (signal.aborted) throw err;
      // An archive on the intranet (a pywb of one's own) that the guard refused "did not
      // answer" before: it was never asked, and allowing its host is what helps.
      if (err instanceof FetchError && err.code === 'blocked') throw noCopy(ARCHIVE_BLOCKED[surface]);
      if (err instanceof FetchError && err.code === 'busy') throw noCopy(`the archive service is busy (${archiveBusy(err)}); retry these later`);
      if (err instanceof FetchError && err.reason === 'upstream') throw noCopy(`the archive service answered ${err.msg}`);
      // An archive that is down (no answer in the headers timeout, refused, no such host) is
      // down for the next dead link too: a list of 100 waited 30 s on it for each. One that the
      // target's own deadline cut short (a site that took most of it) may be fine.
      if (!deadline.aborted) quietUntil(now() + ARCHIVE_SILENT_MS, 'silent');
      throw noCopy('the archive service did not answer');
    }
    const notLookup = (): FetchError => noCopy("the archive service's answer is not an availability lookup's; check the archive service in Settings");
    let body: unknown;
    try {
      body = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw notLookup();
    }
    // JSON of another kind (a CDX search's rows, an error object) said "the archive has no
    // snapshot of this URL": an answer about the page, when the setting was what was wrong.
    // An availability lookup always has archived_snapshots, {} when there is none.
    const snapshots = isJsonObject(body) ? body.archived_snapshots : undefined;
    if (!isJsonObject(snapshots)) throw notLookup();
    const found = isJsonObject(snapshots.closest) ? snapshots.closest : undefined;
    if (found && found.available !== false && found.url !== undefined && typeof found.url !== 'string') throw notLookup();
    if (!found || found.available === false || typeof found.url !== 'string') throw noCopy('the archive has no snapshot of this URL');
    // The Wayback Machine names it in full; an archive of one's own may name it from its root.
    if (!URL.canParse(found.url, lookup)) throw noCopy('the archive service named a snapshot that is not an address');
    const named = new URL(found.url, lookup).href;
    const snap = await download(rawSnapshot(named), signal, deadline).catch((err: unknown) => {
      if (!(err instanceof FetchError)) throw err;
      if (err.code === 'blocked') throw noCopy('the snapshot is at (or redirects to) an address Sift does not fetch');
      // Not a reason to stop asking the archive: a replay answers with the status the site
      // gave when captured, a 429 or 503 among them.
      throw noCopy(`the snapshot failed too (${err.msg})`);
    });
    // The archive's copy of a check, a sign-in wall or a "not found" page is not the page
    // either; one that is the page keeps its warnings (a thin page, a paywall's teaser).
    let warnings: string[] = [];
    if (isHtml(snap.contentType, snap.body)) {
      const html = decodeHtml(snap.body, snap.contentType).text;
      const c = await underDeadline(signal, deadline, (s) => htmlPool.classify({ html, status: snap.status, url: snap.finalUrl }, s));
      if (c.reason) throw noCopy(`the snapshot is not the page either (${pageError(c.reason, snap.status).msg})`);
      warnings = c.warnings;
    } else if (isNotFoundPlain(snap)) {
      // An archive captures a server's plain "404 page not found" sent as a success, too.
      throw noCopy(`the snapshot is not the page either (${pageError('soft404', snap.status).msg})`);
    }
    // A redirect may have gone to another capture (the nearest one) or another page: the
    // snapshot's own URL says which, and when it was taken.
    const at = waybackParts(snap.finalUrl);
    const ts = at?.timestamp ?? (typeof found.timestamp === 'string' ? found.timestamp : '');
    const m = /^(\d{4})(\d{2})(\d{2})(\d{2})?(\d{2})?(\d{2})?/.exec(ts);
    const time = m ? `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}Z` : ts;
    return {
      res: snap,
      base: at?.original ?? snap.finalUrl,
      warnings,
      snapshot: { recovered: true, snapshot_url: at?.page ?? named, snapshot_time: time, recovered_from: original.status },
    };
  }

  async function fetchTarget(signal: AbortSignal, caller: Caller, target: Target, ctx: FetchContext = {}): Promise<Result> {
    // Loading the HTTP client (once) is not the target's time.
    await client.ready();
    // Both from when the target gets its fetch slot (below).
    let started = now();
    let timer: LinkedSignal | undefined;
    const poolCaller = ctx.batch ? `${caller.name}/batch` : caller.name;
    // Where what to do is read: the app has Settings, the command line flags.
    const surface = surfaceOf(caller.name);
    let outcome = 'ok';
    let reason = '';
    let status = 200;
    /** The library's own words for a failure the message says in Sift's (FetchError.detail). */
    let detail: string | undefined;
    try {
      const options = checkOptions(target.options);
      const url = validateUrl(target.url).toString();
      // A single-page app's route (#/reports/1): never sent, as HTTP has no fragments, but
      // the page is rendered with it, so the app's router shows that route.
      const route = routeOf(target.url);
      // The wait for a slot is bounded by the gate's own (5 s, then busy, which the runner
      // retries), not by the target's time: with "Time per URL" under it, a target that never
      // got its turn failed "timeout: waiting for a fetch slot", and a long wait was shown as
      // its fetch time.
      const release = await gate.acquire(signal);
      started = now();
      timer = linkSignals([], ctx.deadlineMs ?? settings.deadlineMs);
      const deadline = timer.signal;
      // The HTML stack's first load (a tenth of a second of compiling, once per process) goes
      // in the time the server takes to answer.
      prefetchHtml(options);
      // The soft-404 probe of the host, when the answer is likely a page it would judge (not
      // JSON for jq, not a file by its name), asked beside the target instead of after it; it
      // ends before the slot is given back.
      const probing = !route && !options.jq && mayBeJudgedPage(url) ? probe.prefetch(probeScope(caller), url, (u) => probeDownload(u, signal, deadline), signal) : undefined;
      let res: HttpResponse & { packed?: number };
      let recovered: Record<string, unknown> = {};
      const mode = options.render ?? settings.render;
      let verdict: Verdict = { warnings: [], needsJs: false };
      try {
        try {
          res = await download(url, signal, deadline).catch((err: unknown) => {
            throw judgeErrorPage(err);
          });
          // A packed file is a file, not a live page: a browser would download it, not run it.
          verdict = await judge(res, caller, signal, deadline, res.packed !== undefined ? 'never' : mode, route);
        } catch (err) {
          if (!options.recover || !recoverable(err, ctx.batch === true)) throw err;
          const r = await recover(url, err as FetchError, signal, deadline, surface);
          res = { ...r.res, finalUrl: r.base };
          recovered = r.snapshot;
          verdict = { warnings: r.warnings, needsJs: false };
        }
      } finally {
        if (probing) await probing;
        release();
      }
      status = res.status;
      let body: Uint8Array = res.body;
      let contentType = res.contentType;
      let finalUrl = res.finalUrl;
      const render: Record<string, unknown> = { rendered: false };
      let warnings = verdict.warnings;
      // The body as the judge decoded it (a recovered snapshot was not judged: decoded here).
      let decoded: Decoded | undefined = verdict.decoded?.body === res.body ? verdict.decoded : undefined;
      // An answer with no body (204 No Content, 205, an empty 200) has nothing for a browser to
      // run: Chromium stays on about:blank at a 204, which failed render=always as "rendering
      // failed" (the app's window: a script that left for about:blank, needs_js) where never
      // said ok and empty.
      const page = res.packed === undefined && !recovered.recovered && res.body.byteLength > 0 && isHtml(res.contentType, res.body);
      if (page && mode === 'never' && route) {
        // Without a browser every route of an app is the same page, its static HTML; one with
        // scripts is the app's, so the route's own page is not there (a shell failed in judge).
        decoded ??= decodeHtml(res.body, res.contentType);
        if (hasScriptBundles(decoded.text)) throw pageError('needs_js', res.status, false, 'route', surface);
      }
      if (page && mode !== 'never') {
        decoded ??= decodeHtml(res.body, res.contentType);
        const html = decoded.text;
        // Readability runs here only on a page that carries scripts (is it thin?); the
        // extraction then reuses its article instead of running it again, so the part its
        // mode returns is made now too.
        let article: Article | undefined;
        const read = (): Promise<Article> => underDeadline(signal, deadline, (s) => htmlPool.article(html, res.finalUrl, ['text', ...articlePart(options.mode ?? 'markdown')], s));
        // A route's page is whatever the app's scripts make of it: the static HTML is the app's
        // whatever the route, so a page with scripts is rendered, full of text or not.
        const why =
          verdict.needsJs || mode === 'always'
            ? shouldRender(mode, html, '', verdict.needsJs)
            : verdict.catchAll
              ? 'catch_all'
              : hasScriptBundles(html)
              ? route
                ? 'route'
                : shouldRender(mode, html, (article = await read()).text, false)
              : undefined;
        if (article) decoded = { ...decoded, article };
        if (why) {
          const info = await renderer.browser();
          if (!info.ok) {
            if (mode === 'always' || why === 'needs_js' || why === 'route' || why === 'catch_all') throw noBrowser(info, mode);
            render.render_skipped = hintOn(surface, `${info.why}. ${info.hint}`);
          } else {
            const r = await renderPage(withRoute(finalUrl, route), signal, deadline, namesNoCharset(res.body, res.contentType) ? { charset: decoded.charset } : {}, verdict.standsAlone === true).catch((err: unknown) => {
              // A check the browser could read no page of (its time ran out, or it kept moving on)
              // is the check it was: Sucuri's reloads itself until the budget ends when it does
              // not clear, and failed as "timeout: … did not yield", to be retried later with a
              // larger budget. Where the browser did get somewhere (a 404, a refused host), it says more.
              const { judged } = verdict;
              const unread = err instanceof FetchError && (err.status === 504 || err.message === movingPage().message);
              if (judged && unread && !signal.aborted) throw pageError(judged.reason, res.status, true, judged.signal, surface);
              throw err;
            });
            if (r.kind === 'left') {
              // The page stands as its server sent it, and says so.
              Object.assign(render, { render_refused: r.guardRefused?.requests ?? 1, render_refused_why: leftWords(r.guardRefused, surface) });
            } else {
              body = Buffer.from(r.html, 'utf8');
              decoded = undefined;
              contentType = 'text/html; charset=utf-8';
              finalUrl = r.finalUrl;
              Object.assign(render, { rendered: true, render_why: why, render_ms: r.ms }, r.partial ? { render_partial: true } : {});
              // A page that rendered without what the guard refused it (an intranet API, images on
              // a private host) says so: its result held less than the page shows in a browser,
              // and nothing said why.
              if (r.guardRefused) Object.assign(render, { render_refused: r.guardRefused.requests, render_refused_why: refusalWords(r.guardRefused, surface) });
              // The rendered page is judged like a fetched one: a shell that stayed empty is
              // still needs_js, a check that did not clear is still a challenge.
              const scriptsFailed = !!(r.scriptError || r.scriptsMissing || r.scriptsAsHtml || r.scriptsUnreached || (r.guardRefused && refusedScriptHosts(html, res.finalUrl, r.guardRefused).length > 0));
              const after = classifyPage({ html: r.html, status: res.status, url: r.finalUrl, rendered: true, scriptsFailed });
              if (after.reason) {
                const shell = pageError(after.reason, res.status, true, after.signals?.[0], surface);
                // A refused request leads where there is one: the script's error is then mostly its
                // consequence ("TypeError: Failed to fetch" from the refused data API).
                const own = after.reason === 'needs_js' && !r.guardRefused;
                // The SyntaxError a script sent as HTML throws is that answer's consequence; an
                // error of another kind is a script's own, and is quoted.
                const asHtml = own && r.scriptsAsHtml && (!r.scriptError || r.scriptError.startsWith('SyntaxError')) ? r.scriptsAsHtml : 0;
                // A library that never came is what the page's own script then calls: its error
                // ("ReferenceError: Vue is not defined") is that consequence, and quoting it hid
                // that the scripts' server did not answer.
                const unreached = own && r.scriptsUnreached && (!r.scriptError || r.scriptError.startsWith('ReferenceError')) ? r.scriptsUnreached : 0;
                const err = asHtml
                  ? scriptsAsHtml(shell, asHtml)
                  : unreached
                    ? scriptsUnreached(shell, unreached, inScriptOrder(r.scriptsUnreachedHosts ?? [], html, res.finalUrl))
                    : own && r.scriptError
                    ? scriptFailed(shell, r.scriptError)
                    : own && r.scriptsMissing
                      ? scriptsMissing(shell, r.scriptsMissing)
                      : shell;
                // A shell that stayed empty while the guard refused some of its requests (its data
                // API on a private host) says so first: more time, which the hint offered, changes nothing.
                // Its own script bundle refused is no data the content "may come from": the scripts never ran.
                if (after.reason === 'needs_js' && r.guardRefused && refusedScriptHosts(html, res.finalUrl, r.guardRefused).length > 0) throw scriptsRefusedError(r.guardRefused, html, res.finalUrl, surface);
                if (after.reason === 'needs_js' && r.guardRefused) throw new FetchError(err.status, err.message, emptyShellHint(r.guardRefused, err.hint, surface), err.code);
                throw err;
              }
              if (verdict.catchAll && !drawnByScripts(html, r.html)) throw pageError('soft404', res.status, true, 'random-path-twin');
              if (scriptsRefused(html, res.finalUrl, r.html, r.guardRefused, after.warnings)) throw scriptsRefusedError(r.guardRefused, html, res.finalUrl, surface);
              warnings = after.warnings;
            }
          }
        }
      }
      const out: Extracted = await underDeadline(signal, deadline, (s) =>
        extractBody(body, contentType, options, { url: finalUrl, poolCaller, maxPdfPages: settings.maxPdfPages, signal: s, pdf, compute, html: htmlPool, decoded, ...(ctx.onPages ? { onPages: ctx.onPages } : {}) }),
      );
      const meta: Record<string, unknown> = {
        url: withRoute(url, route),
        final_url: finalUrl,
        status: res.status,
        ...out.meta,
        ...render,
        recovered: recovered.recovered === true,
        ...recovered,
        fetched_ms: Math.round(now() - started),
      };
      // The name the server gives the file (a download link's "report.pdf?id=7" is "Annual
      // report 2024.pdf"): in meta, and the title of a document that names itself nothing, as
      // a browser names the download. Untitled, it was listed and exported as "download".
      const filename = dispositionFileName(res.headers['content-disposition']);
      if (filename) {
        meta.filename = filename;
        if (!meta.title) Object.assign(meta, { title: filename.replace(/\.[a-z0-9]{1,5}$/i, '').trim() || filename, title_from: 'filename' });
      }
      if (res.redirects) meta.redirects = res.redirects;
      if (res.lenient) meta.http_lenient = true;
      if (res.packed !== undefined) Object.assign(meta, packedMeta(res.packed));
      // The page's (thin) and the document's own (a PDF without text).
      const own = Array.isArray(out.meta.warnings) ? (out.meta.warnings as string[]) : [];
      // An empty body or a teaser (behind a paywall or a sign-in) is thin too; "empty", "paywall" and "teaser" say more.
      // An archived copy is ok, but not the live page (it may be years old): said where the
      // row, the summary counts and the export list warnings, not only deep in meta.
      // A thin page whose scripts were not run for want of a browser (render_skipped) read only
      // "thin page: a short page, or a teaser in front of a paywall", with no word that its
      // scripts may draw the rest nor how to get a browser: "not rendered" says both.
      const pageWarnings = render.render_skipped ? ['not_rendered', ...warnings.filter((w) => w !== 'thin')] : warnings;
      const all = [...(recovered.recovered ? ['recovered'] : []), ...(own.some((w) => SAYS_MORE_THAN_THIN.has(w)) ? pageWarnings.filter((w) => w !== 'thin') : pageWarnings), ...own];
      if (all.length) meta.warnings = [...new Set(all)];
      return { content: out.content, meta };
    } catch (caught) {
      // A caller's own deadline on its signal (an AbortSignal.timeout) is a timeout too, not a
      // cancel or a bug.
      const err = !(caught instanceof FetchError) && isTimeoutAbort(signal) ? timeoutError("the target's deadline passed", DEADLINE_HINT) : caught;
      if (err instanceof FetchError) {
        outcome = err.code;
        reason = err.reason;
        status = err.status;
        detail = err.detail;
      } else {
        outcome = signal.aborted ? 'cancelled' : 'internal';
        reason = outcome;
        status = 500;
      }
      throw err;
    } finally {
      timer?.dispose();
      log({ msg: 'fetch', caller: caller.name, batch: ctx.batch === true, outcome, ...(reason ? { reason } : {}), ...(detail ? { detail } : {}), status, ms: Math.round(now() - started) });
    }
  }

  async function extractBuffer(buf: Buffer | Uint8Array, contentType: string, options: Options, ctx: { caller?: Caller; url?: string; signal?: AbortSignal; onPages?: OnPages } = {}): Promise<Result> {
    const started = now();
    const opts = checkOptions(options);
    const signal = ctx.signal ?? new AbortController().signal;
    const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
    // A local items.json.gz is read as what it holds, as a downloaded one is.
    const gz = unwrapGzip(bytes, contentType, ctx.url ?? '', settings.maxBodyBytes);
    const timer = linkSignals([], settings.deadlineMs);
    const out = await underDeadline(signal, timer.signal, (s) =>
      extractBody(gz?.body ?? bytes, gz?.contentType ?? contentType, opts, { url: ctx.url ?? '', poolCaller: ctx.caller?.name ?? 'cli', maxPdfPages: settings.maxPdfPages, signal: s, pdf, compute, html: htmlPool, ...(ctx.onPages ? { onPages: ctx.onPages } : {}) }),
    ).finally(() => timer.dispose());
    return { content: out.content, meta: { ...(ctx.url ? { url: ctx.url } : {}), ...out.meta, ...(gz ? packedMeta(bytes.byteLength) : {}), fetched_ms: Math.round(now() - started) } };
  }

  return {
    ready: () => client.ready(),
    fetchTarget,
    extractBuffer,
    updateSettings(s) {
      const before = settings;
      settings = { ...settings, ...s };
      gate.resize(settings.gateSize, settings.gateWaitMs);
      renderGate.resize(settings.renderPages, renderWaitMs());
      if (before.connectTimeoutMs !== settings.connectTimeoutMs || before.headersTimeoutMs !== settings.headersTimeoutMs || before.bodyTimeoutMs !== settings.bodyTimeoutMs) {
        client.rebuild();
      }
    },
    settings: () => ({ ...settings }),
    gate: { acquire: (signal) => gate.acquire(signal), inFlight: () => gate.inFlight(), waiting: () => gate.waiting() },
    renderGate: { acquire: (signal) => renderGate.acquire(signal), waiting: () => renderGate.waiting() },
    browser: () => renderer.browser(),
    proxy,
    pdf,
    html: htmlPool,
    async close() {
      await Promise.all([pdf.close(), compute.close(), htmlPool.close(), client.close(), renderer.close().then(() => proxy.close())]);
    },
  };
}
