import type { GuardPolicy } from '../guard';
import type { ProxyEndpoint, ProxyEvent, ProxySession } from './proxy';
import type { GuardRefusals } from './refusals';

/** A page after its JavaScript ran: where it ended up and its serialized DOM. */
export interface Rendered {
  finalUrl: string;
  html: string;
  /** The main document's HTTP status as the browser saw it (0 when unknown). */
  status: number;
  /** True when the budget ran out before the page settled (the DOM is what it had then). */
  partial: boolean;
  /** The page (or a script or redirect of it) navigated where the guard refused to go. */
  refused?: boolean;
  /**
   * With refused: the browser had shown the page's own document (it answered 2xx) before it
   * went on where the guard refused: a script's download or move, not a redirect of its load.
   */
  left?: boolean;
  /** The page navigated to a host the guard let through, which did not resolve or answer. */
  unreachable?: boolean;
  /** What the guard refused of the page's own requests (images, scripts, XHR, frames, sockets). */
  guardRefused?: GuardRefusals;
  /** The first uncaught error of the page's scripts, as scriptErrorWords says it. */
  scriptError?: string;
  /** The top page's scripts its server answered with an error (a 404 after a deploy), and the first such status. */
  scriptsMissing?: { count: number; status: number };
  /** The top page's scripts its server answered with an HTML page (2xx, text/html) instead. */
  scriptsAsHtml?: number;
  /** How many of the top page's scripts were on a host that did not resolve or answer: none of them ran. */
  scriptsUnreached?: number;
  /** The hosts of those scripts, each once, in the order the page asked for them. */
  scriptsUnreachedHosts?: string[];
}

/** Which browser renders, or why none can. */
export type BrowserInfo = { ok: true; name: string; path: string } | { ok: false; why: string; hint: string };

/** What the static fetch learnt about the page that helps its render. */
export interface RenderHint {
  /**
   * The charset the static fetch read the page in, set only when neither its header nor the
   * page named one: a browser would read such a page as windows-1252 (see unlabelledCharset).
   */
  charset?: string;
}

/**
 * Runs a page's JavaScript (SPEC §5.10). Resolves once the page has settled (DOMContentLoaded,
 * then the network idle for ~500 ms, a hung request not counted) or the budget ran out; a page that yields nothing within the
 * budget (a busy loop) rejects with a 504 FetchError. Every request goes through the
 * guarding proxy; each call gets a fresh browser context, so no state crosses targets.
 */
export interface Renderer {
  render(url: string, signal: AbortSignal, budgetMs: number, hint?: RenderHint): Promise<Rendered>;
  /** The browser that would be used, or why there is none; never starts it. */
  browser(): Promise<BrowserInfo>;
  close(): Promise<void>;
}

/** What the fetch pipeline hands a renderer: the proxy to use and the settings it reads. */
export interface RendererEnv {
  proxy: () => Promise<ProxyEndpoint>;
  /** Listens to what the proxy refuses (the guard) or cannot reach; returns the unsubscribe. */
  proxyEvents: (listener: (e: ProxyEvent) => void) => () => void;
  /** Credentials of their own for one browser context, so its events are told from others' (ProxyEvent.session). */
  proxySession: () => Promise<ProxySession>;
  policy: () => GuardPolicy;
  /** '' = SIFT_CHROMIUM, then the usual places (the CLI's renderer reads it). */
  chromiumPath: () => string;
  userAgent: () => string;
  log: (line: Record<string, unknown>) => void;
}

export type RendererFactory = (env: RendererEnv) => Renderer;

/** How long after the budget a render may take to give up, close and report (the 504's slack). */
export const SETTLE_IDLE_MS = 500;
