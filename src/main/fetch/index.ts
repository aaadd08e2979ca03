/**
 * The fetch pipeline (SPEC §5): everything between a Target and its Result. createFetcher
 * is the entry point; the pieces are exported for tests and for the app's preview.
 * Not html.ts: the HTML stack (linkedom, Readability, turndown, domino: 1.4 MB of the CLI
 * bundle) loads when a page needs it, in this thread or in the HTML worker (html-pool.ts);
 * import it from './html'.
 */
export { createFetcher, recoverable, type Caller, type Fetcher, type FetcherDeps } from './fetcher';
export { FetchError, codeFor, pageError, RATE_LIMITED, timeoutError, waitWords } from './errors';
export { classifyPage, pageSimilarity, THIN_CHARS, type Classification, type ClassifyInput, type PageReason } from './classify';
export { SoftNotFoundProbe } from './probe';
export { defaultFetchSettings, USER_AGENT, type FetchSettings } from './settings';
export { validateUrl, MAX_URL_BYTES } from './url';
export { blockedReason, checkAddress, guardedLookup, hostAllowed, resolveGuarded, systemResolver, type GuardPolicy, type ResolvedAddress, type Resolver } from './guard';
export { FETCHING_BUSY, Gate, GateBusyError, RENDERING_BUSY } from './gate';
export { linkSignals } from './linked-signal';
export { HttpClient, parseRetryAfter, MAX_HEADER_BYTES, type HttpResponse } from './client';
export { decodeText, headerCharset, declaredCharset } from './charset';
export { classify, sniffBody, mediaType, type Kind } from './sniff';
export { extractBody, type ExtractContext, type Extracted } from './extract';
export { PdfPool, type PdfText, type PageRanges, type PdfPoolStats } from './pdf-pool';
export { ComputePool } from './compute';
export { HtmlPool, WORKER_FROM_CHARS, type HtmlPoolOptions } from './html-pool';
export { parsePages, PAGES_SYNTAX } from './pages';
export { answer, splitPassages, type Passage } from './question';
export { shouldRender, hasScriptBundles, type RenderWhy } from './render/decide';
export { GuardProxy, type ProxyEndpoint, type ProxyEvent, type ProxySession } from './render/proxy';
export { refusalWords, type GuardRefusals } from './render/refusals';
export { ChromiumRenderer, chromiumArgs } from './render/chromium';
export { findBrowser, NO_BROWSER_HINT } from './render/find-browser';
export type { BrowserInfo, Rendered, RenderHint, Renderer, RendererEnv, RendererFactory } from './render/types';
