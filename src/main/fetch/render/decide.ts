import type { RenderMode } from '../../../shared/types';
import { THIN_CHARS } from '../classify';
import { bareHost } from '../guard';

/**
 * Why a page is rendered under `auto`: an app shell whose content appears only after its
 * JavaScript runs, a thin page that carries script bundles, a page with script bundles
 * whose address names a single-page app's route (#/…, which only the app's scripts read), or
 * an app the host answers every path with (`catch_all`: an app that routes by path draws
 * each path's page; a host's catch-all draws none). `undefined` = not rendered.
 */
export type RenderWhy = 'needs_js' | 'thin_with_scripts' | 'route' | 'catch_all';

// "Thin" as the page classification means it (a short real page is ok with warnings: ["thin"]).
export { THIN_CHARS };

const SCRIPT_RE = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** Does the page carry script bundles: an external script, a module, or a large inline one. */
export function hasScriptBundles(html: string): boolean {
  for (const m of html.matchAll(SCRIPT_RE)) {
    const attrs = m[1] ?? '';
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase() ?? '';
    if (type && type !== 'module' && !/javascript|ecmascript/.test(type)) continue; // JSON-LD, templates
    if (/\bsrc\s*=/i.test(attrs) || type === 'module') return true;
    // 200 chars of code builds DOM; analytics snippets are shorter or load a src.
    if ((m[2] ?? '').trim().length >= 200) return true;
  }
  return false;
}

/** The addresses of the page's external scripts, in the page's order, its address resolving relative ones. */
function scriptUrls(html: string, base: string): URL[] {
  const urls: URL[] = [];
  for (const m of html.matchAll(SCRIPT_RE)) {
    const src = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(m[1] ?? '');
    const ref = (src?.[1] ?? src?.[2] ?? src?.[3] ?? '').trim();
    if (ref && URL.canParse(ref, base)) urls.push(new URL(ref, base));
  }
  return urls;
}

/** The hosts the page's external scripts load from (as the guard names them: no brackets), its address resolving relative ones. */
export function scriptHosts(html: string, base: string): string[] {
  return [...new Set(scriptUrls(html, base).map((u) => bareHost(u.hostname)))];
}

/**
 * Script hosts (host:port, as the browser's failed loads name them) in the order the page's
 * HTML loads scripts from them, those it does not name last: the browser loads them side by
 * side, so the order they failed in was the machine's, not the page's.
 */
export function inScriptOrder(hosts: readonly string[], html: string, base: string): string[] {
  const order = [...new Set(scriptUrls(html, base).map((u) => u.host))];
  const at = (h: string): number => (order.includes(h) ? order.indexOf(h) : order.length);
  return [...hosts].sort((a, b) => at(a) - at(b));
}

/**
 * Whether to render a page fetched statically (SPEC §5.10): `always` renders every HTML
 * page, `never` none; `auto` only an app shell (the page classification's needs_js,
 * classify.ts), or a thin page with script bundles. A page
 * whose article is in the HTML is never rendered under `auto`.
 */
export function shouldRender(mode: RenderMode, staticHtml: string, extractedText: string, needsJs: boolean): RenderWhy | 'always' | undefined {
  if (mode === 'never') return undefined;
  if (mode === 'always') return 'always';
  if (needsJs) return 'needs_js';
  if (extractedText.replace(/\s+/g, ' ').trim().length < THIN_CHARS && hasScriptBundles(staticHtml)) return 'thin_with_scripts';
  return undefined;
}
