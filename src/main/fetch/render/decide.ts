import type { RenderMode } from '../../../shared/types';

/**
 * Why a page is rendered under `auto`: an app shell whose content appears only after its
 * JavaScript runs, or a thin page that carries script bundles. `undefined` = not rendered.
 */
export type RenderWhy = 'needs_js' | 'thin_with_scripts';

// Below this much readable text a page is "thin": a paragraph of an article is ~400 chars.
export const THIN_CHARS = 400;
// An app shell shows less than this outside its scripts (a nav bar, a "loading…").
const SHELL_CHARS = 200;
// A string this long in embedded state is prose (a title or a paragraph), not an id.
const PROSE_CHARS = 60;

const ROOT_RE = /<(?:div|main|section|body)\b[^>]*\bid\s*=\s*["']?(?:root|app|__next|__nuxt|___gatsby|svelte|app-root|main-app)\b/i;
const ROOT_TAG_RE = /<(?:app-root|ng-app)\b/i;
const STATE_RE = /<script\b[^>]*(?:\bid\s*=\s*["']?(?:__NEXT_DATA__|__NUXT_DATA__)|\bdata-n-head)[^>]*>([\s\S]*?)<\/script>|window\.__(?:NUXT|INITIAL_STATE|PRELOADED_STATE|APOLLO_STATE)__\s*=\s*([\s\S]*?)<\/script>/gi;
const NOSCRIPT_RE = /<noscript\b[^>]*>([\s\S]*?)<\/noscript>/gi;
const ENABLE_JS_RE = /\b(?:enable|turn on|activate|requires?|needs?)\b[^<]{0,40}\bjavascript\b|\bjavascript\b[^<]{0,40}\b(?:required|disabled|enabled|must be)\b/i;
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

/**
 * An app shell: a framework root with almost no visible text, embedded state (Next.js,
 * Nuxt, Redux) holding prose the visible HTML lacks, or a noscript asking to enable
 * JavaScript on a page with little else. (The issue-12 classifier's needs_js is the fuller
 * version of this check.)
 */
export function looksLikeAppShell(html: string, visibleText: string): boolean {
  const text = visibleText.replace(/\s+/g, ' ').trim();
  if (text.length < SHELL_CHARS && (ROOT_RE.test(html) || ROOT_TAG_RE.test(html)) && hasScriptBundles(html)) return true;
  let visibleHtml: string | undefined;
  for (const m of html.matchAll(STATE_RE)) {
    const state = m[1] ?? m[2] ?? '';
    for (const s of state.matchAll(/"((?:[^"\\]|\\.){60,})"/g)) {
      const prose = (s[1] ?? '').replace(/\\u[0-9a-f]{4}|\\./gi, ' ').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
      // Prose: has spaces between words; not a URL, a hash or base64.
      if (prose.length < PROSE_CHARS || !/\w+ \w+ \w+/.test(prose) || /^https?:/.test(prose)) continue;
      visibleHtml ??= visibleTextOf(html);
      if (!visibleHtml.includes(prose.slice(0, 40))) return true;
    }
  }
  if (text.length < THIN_CHARS) {
    for (const m of html.matchAll(NOSCRIPT_RE)) if (ENABLE_JS_RE.test((m[1] ?? '').replace(/<[^>]*>/g, ' '))) return true;
  }
  return false;
}

/** The HTML's text outside scripts, styles and tags, with entities for quotes undone. */
function visibleTextOf(html: string): string {
  return html
    .replace(/<(script|style|template|noscript)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(?:#39|apos);/g, "'")
    .replace(/&(?:#34|quot);/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/**
 * Whether to render a page fetched statically (SPEC §5.10): `always` renders every HTML
 * page, `never` none; `auto` only an app shell, or a thin page with script bundles. A page
 * whose article is in the HTML is never rendered under `auto`.
 */
export function shouldRender(mode: RenderMode, staticHtml: string, extractedText: string): RenderWhy | 'always' | undefined {
  if (mode === 'never') return undefined;
  if (mode === 'always') return 'always';
  if (looksLikeAppShell(staticHtml, extractedText)) return 'needs_js';
  if (extractedText.replace(/\s+/g, ' ').trim().length < THIN_CHARS && hasScriptBundles(staticHtml)) return 'thin_with_scripts';
  return undefined;
}
