/**
 * A pruning pass over the article Readability found: what Readability keeps around the text
 * that readers (and the article extraction benchmark's ground truth) do not count as the
 * article. Each rule is general (tags, roles, class words, link density, short boilerplate
 * phrases); none names a site.
 */

// linkedom's element, reduced to what the pass reads.
export interface PruneElement {
  tagName: string;
  textContent: string | null;
  parentElement: PruneElement | null;
  children: ArrayLike<PruneElement>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelectorAll(selector: string): ArrayLike<PruneElement>;
  remove(): void;
}

export type PruneRule = 'tag' | 'role' | 'hidden' | 'caption' | 'boilerplate' | 'linkDense' | 'phrase';
export const PRUNE_RULES: readonly PruneRule[] = ['tag', 'role', 'hidden', 'caption', 'boilerplate', 'linkDense', 'phrase'];

/** Elements that are never the article's text: captions, asides, navigation, forms. */
const DROP_TAGS = new Set(['FIGCAPTION', 'ASIDE', 'NAV', 'FORM', 'BUTTON', 'DIALOG', 'SELECT', 'TEXTAREA', 'INPUT']);

const DROP_ROLES = new Set(['navigation', 'complementary', 'contentinfo', 'banner', 'dialog', 'alertdialog', 'search', 'menu', 'menubar', 'toolbar']);

/** The words of a class or id: split on punctuation and camelCase, lower-cased. */
export function classWords(value: string): string[] {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Whole class names that hide an element from screen readers' sighted users or show it in
 * print only. Whole names, not words: "field-label-hidden" hides a label, not its field.
 */
const HIDDEN_CLASSES = new Set([
  'hidden', 'hide', 'is-hidden', 'u-hidden', 'invisible', 'd-none', 'sr-only', 'visually-hidden', 'visuallyhidden',
  'screen-reader-text', 'screenreader-only', 'offscreen', 'print-only', 'print-header', 'print-footer', 'visible-print', 'show-for-print',
]);

const CAPTION_WORDS = new Set(['caption', 'captions', 'credit', 'credits', 'figcaption', 'attribution']);

/** Class/id words of blocks that sit inside an article's container without being its text. */
const BOILERPLATE_WORDS = new Set([
  // share and follow widgets
  'share', 'shares', 'sharing', 'sharebar', 'social', 'follow',
  // newsletters, subscriptions, calls to action, paywall prompts
  'newsletter', 'newsletters', 'subscribe', 'subscription', 'signup', 'cta', 'promo', 'promotion', 'paywall', 'membership',
  // related and recommended reading
  'related', 'recirc', 'recirculation', 'recommended', 'recommendations', 'recommend', 'readmore', 'trending', 'popular', 'outbrain', 'taboola', 'rail',
  // comments
  'comment', 'comments', 'disqus', 'respond',
  // cookie and consent banners
  'cookie', 'cookies', 'consent', 'gdpr',
  // ads
  'ad', 'ads', 'advert', 'adverts', 'advertisement', 'advertising', 'sponsor', 'sponsored', 'dfp',
  // bylines, author boxes, datelines, tags, breadcrumbs, disclaimers
  'byline', 'bio', 'author', 'authors', 'timestamp', 'dateline', 'breadcrumb', 'breadcrumbs', 'tags', 'disclaimer', 'copyright',
]);
const BOILERPLATE_PAIRS = [['read', 'more'], ['more', 'stories'], ['most', 'read'], ['see', 'also'], ['you', 'may'], ['about', 'author']];

const hasPair = (words: string[], pairs: string[][]): boolean =>
  pairs.some(([a, b]) => words.some((w, i) => w === a && words[i + 1] === b));

function wordsOf(el: PruneElement): string[] {
  const cls = el.getAttribute('class');
  const id = el.getAttribute('id');
  if (!cls && !id) return [];
  return classWords(`${cls ?? ''} ${id ?? ''}`);
}

/**
 * Short blocks that are calls to action or pointers elsewhere, in any site's words: "Related:",
 * "READ MORE:", "Sign up for our newsletter", "This post may contain affiliate links".
 */
const PHRASE = new RegExp(
  [
    '^(related|read more|read next|see more|more|also read|read also|recommended|watch|listen|click here|advertisement)\\b\\s*[:|-]',
    '^advertisement$',
    '\\b(sign up|subscribe)\\b.{0,60}\\b(newsletter|inbox|updates|channel)',
    '\\bnewsletter\\b.{0,40}\\b(sign up|subscribe)',
    '\\b(follow us|share this|share on)\\b',
    '\\baffiliate (links?|commission)',
    '\\bthis (web)?site uses cookies\\b',
  ].join('|'),
  'i',
);
const PHRASE_MAX = 220;

const norm = (s: string | null): string => (s ?? '').replace(/\s+/g, ' ').trim();

function linkTextLength(el: PruneElement): number {
  let n = 0;
  for (const a of Array.from(el.querySelectorAll('a'))) n += norm(a.textContent).length;
  return n;
}

const LINK_BLOCKS = new Set(['P', 'LI', 'UL', 'OL', 'DL', 'DIV', 'SECTION', 'TABLE', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE']);
/** Share of a block's text in links above which it is a list of links, not prose. */
const LINK_DENSITY = 0.8;

/**
 * Removes from `root` (the article Readability returned, classes kept) what is not the
 * article's text, then drops the class attributes as Readability would have. `rules` limits
 * the pass to some rules (the fidelity bench measures each alone).
 */
export function pruneArticle(root: PruneElement, rules: readonly PruneRule[] = PRUNE_RULES): void {
  const on = new Set(rules);
  const total = norm(root.textContent).length;
  // A class word may mark the article's own container ("post has-share-buttons"): never drop
  // an element holding this share of the article's text.
  const guard = total * 0.3;
  const all = Array.from(root.querySelectorAll('*'));
  const removed = new Set<PruneElement>();
  const gone = (el: PruneElement): boolean => {
    for (let e: PruneElement | null = el; e && e !== root; e = e.parentElement) if (removed.has(e)) return true;
    return false;
  };
  const drop = (el: PruneElement): void => {
    removed.add(el);
    el.remove();
  };
  for (const el of all) {
    if (gone(el)) continue;
    const tag = el.tagName.toUpperCase();
    if (on.has('tag') && DROP_TAGS.has(tag)) {
      drop(el);
      continue;
    }
    const role = (el.getAttribute('role') ?? '').toLowerCase();
    if (on.has('role') && role && DROP_ROLES.has(role)) {
      drop(el);
      continue;
    }
    const words = wordsOf(el);
    if (!words.length) continue;
    if (on.has('hidden') && (el.getAttribute('class') ?? '').split(/\s+/).some((c) => HIDDEN_CLASSES.has(c.toLowerCase()))) {
      if (norm(el.textContent).length < guard) drop(el);
      continue;
    }
    if (on.has('caption') && words.some((w) => CAPTION_WORDS.has(w))) {
      drop(el);
      continue;
    }
    if (on.has('boilerplate') && (words.some((w) => BOILERPLATE_WORDS.has(w)) || hasPair(words, BOILERPLATE_PAIRS))) {
      if (norm(el.textContent).length < guard) drop(el);
    }
  }
  if (on.has('linkDense') || on.has('phrase')) {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const tag = el.tagName.toUpperCase();
      if (!LINK_BLOCKS.has(tag) || gone(el)) continue;
      const text = norm(el.textContent);
      if (!text) continue;
      if (on.has('linkDense') && text.length < guard && linkTextLength(el) / text.length >= LINK_DENSITY) {
        drop(el);
        continue;
      }
      if (on.has('phrase') && text.length <= PHRASE_MAX && PHRASE.test(text)) drop(el);
    }
  }
  for (const el of Array.from(root.querySelectorAll('[class]'))) {
    const keep = (el.getAttribute('class') ?? '').split(/\s+/).filter((c) => c === 'page');
    if (keep.length) el.setAttribute('class', keep.join(' '));
    else el.removeAttribute('class');
  }
}
