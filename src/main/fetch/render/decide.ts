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

/** The hosts the page's external scripts load from (as the guard names them: no brackets), its address resolving relative ones. */
export function scriptHosts(html: string, base: string): string[] {
  const hosts = new Set<string>();
  for (const m of html.matchAll(SCRIPT_RE)) {
    const src = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(m[1] ?? '');
    const ref = (src?.[1] ?? src?.[2] ?? src?.[3] ?? '').trim();
    if (ref && URL.canParse(ref, base)) hosts.add(bareHost(new URL(ref, base).hostname));
  }
  return [...hosts];
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
