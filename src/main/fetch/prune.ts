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
  childNodes: ArrayLike<{ nodeType: number; textContent: string | null }>;
  children: ArrayLike<PruneElement>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
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

/**
 * Class words of a box a pointer opens over a word of the text (a person's card with their
 * picture and latest stories, a term's definition). Such a box sits inside the element that
 * holds the word, which is named the same way ("rollover-people" around the name and its
 * "rollover-people-block"; "tooltip" around a term and its "tooltiptext"): the box, after the
 * word, goes; the word stays. Its text ran into the sentence:
 * "threatened to kill Rep. Ilhan OmarIlhan OmarHillicon Valley: Progressives oppose…".
 */
const POPUP_WORDS = new Set(['tooltip', 'tooltiptext', 'popover', 'hovercard', 'rollover', 'popup']);

const namesPopup = (el: PruneElement): boolean => {
  const value = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''}`;
  return value.trim() !== '' && classWords(value).some((w) => POPUP_WORDS.has(w));
};

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


/**
 * Short blocks that are calls to action or pointers elsewhere, in any site's words: "Related:",
 * "READ MORE:", "Sign up for our newsletter", "This post may contain affiliate links"; an ad
 * slot's label left alone between paragraphs ("Advert", "Anzeige"); a widget's notice that
 * it needs scripts ("This slideshow requires JavaScript."), a gallery's counter ("Image 1 of
 * 23", "1 of 6") and its buttons' words ("Caption", "Enlarge", "Next"), "Loading…", and a
 * pointer to other stories left without its list ("You may also like...", "DON'T MISS"),
 * which say nothing once extracted.
 */
const PHRASE = new RegExp(
  [
    '^(related|read more|read next|see more|more|also read|read also|recommended|watch|listen|click here|advertisement)\\b\\s*[:|-]',
    '^(advertisement|advertising|advert|ads?|sponsored|anzeige|werbung|publicidad|publicidade|publicité|pubblicità|advertentie|annons|annonse|mainos|reklam|reklama|hirdetés|iklan|реклама|διαφήμιση|广告|広告|광고)$',
    '^(this|the) (slideshow|slider|gallery|carousel|video|player|map|embed|widget|content|form|feature)\\b.{0,40}\\b(requires|needs) javascript\\b',
    '^((image|photo|picture|slide|foto|bild)s? )?\\d+ ?(of|/|von|de|di|sur) ?/? ?\\d*$',
    '^loading\\b.{0,30}(\\.\\.\\.|…)$',
    "^(you (may|might) also like|don'?t miss|more from|more on this|recommended for you|trending now|popular now|most popular|most read|editor'?s picks|related (stories|articles|posts|content))\\b.{0,20}$",
    '^(caption|hide caption|show caption|toggle caption|enlarge( this)?( image)?|expand|view gallery|open gallery|fullscreen|full screen|close|previous|next|prev)$',
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

type ClassKind = 'hidden' | 'caption' | 'boilerplate' | undefined;

/**
 * Which class rule an element's class and id fall under, if any. `seen` caches by class and id
 * text: a page repeats a few hundred class strings over thousands of elements.
 */
function classKind(el: PruneElement, seen: Map<string, ClassKind>): ClassKind {
  const cls = el.getAttribute('class') ?? '';
  const id = el.getAttribute('id') ?? '';
  if (!cls && !id) return undefined;
  const key = `${cls}#${id}`;
  if (seen.has(key)) return seen.get(key);
  let kind: ClassKind;
  const words = classWords(`${cls} ${id}`);
  if (cls.split(/\s+/).some((c) => HIDDEN_CLASSES.has(c.toLowerCase()))) kind = 'hidden';
  else if (words.some((w) => CAPTION_WORDS.has(w))) kind = 'caption';
  else if (words.some((w) => BOILERPLATE_WORDS.has(w)) || hasPair(words, BOILERPLATE_PAIRS)) kind = 'boilerplate';
  seen.set(key, kind);
  return kind;
}

/** Words that name a cookie or consent prompt, and words that name a box shown over or beside the page. */
const CONSENT_WORDS = new Set(['cookie', 'cookies', 'consent', 'gdpr', 'ccpa']);
const PROMPT_WORDS = new Set(['banner', 'notice', 'bar', 'popup', 'modal', 'dialog', 'overlay', 'prompt', 'wall', 'layer', 'alert', 'message', 'manager', 'preferences']);
/** The longest text a consent prompt holds: a page's article is longer, a wrapper around it far longer. */
const PROMPT_MAX = 2000;

/** Whether words (of a class, an id or a custom element's name) name a consent prompt: "cookie-banner", "ConsentNotice", "gdpr_overlay". */
export const namesConsentPrompt = (words: readonly string[]): boolean => words.some((w) => CONSENT_WORDS.has(w)) && words.some((w) => PROMPT_WORDS.has(w));

/** Text that reads as a cookie or consent prompt: short, and about cookies or consent. */
export const isConsentPrompt = (text: string): boolean => {
  // An article's text is read whole only when it could be short: most are far longer.
  if (text.length > 4 * PROMPT_MAX) return false;
  const t = norm(text);
  return t.length > 0 && t.length <= PROMPT_MAX && /\b(?:cookies?|consent)\b/i.test(t);
};

/**
 * Removes cookie and consent prompts from a page before Readability reads it, for a page on
 * which Readability took one for the article. Readability drops some by class ("gdpr",
 * "banner"), never by element name: a custom element such as <acme-cookie-banner> holds a few
 * paragraphs of prose, and on a page whose article is a short post it was the article (a
 * forum post of one paragraph came back as its cookie notice). An element goes when its name,
 * class or id names a consent prompt and its text is short, and it holds no <main>,
 * <article> or <h1>.
 */
export function dropConsentPrompts(root: { querySelectorAll(selector: string): ArrayLike<PruneElement & { querySelector(selector: string): unknown }> }): number {
  let dropped = 0;
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const name = el.tagName.toLowerCase();
    const custom = name.includes('-');
    const cls = el.getAttribute('class') ?? '';
    const id = el.getAttribute('id') ?? '';
    if (!cls && !id && !custom) continue;
    if (!namesConsentPrompt(classWords(`${custom ? name : ''} ${cls} ${id}`))) continue;
    if (textLength(el.textContent) > PROMPT_MAX || el.querySelector('main, article, h1')) continue;
    el.remove();
    dropped++;
  }
  return dropped;
}

/** Inline elements a caption or a credit line is written with. */
const INLINE_TAGS = new Set(['A', 'ABBR', 'B', 'BR', 'CITE', 'CODE', 'EM', 'I', 'SMALL', 'SPAN', 'STRONG', 'SUB', 'SUP', 'TIME']);

interface ContainerElement extends PruneElement {
  ownerDocument: { createElement(name: string): ContainerElement };
  appendChild(node: unknown): unknown;
}

/**
 * Readability replaces a <div> that holds a single <p> by the <p>, and the div's class goes
 * with it ("<div class=newsletter><p>Get the tide tables in your inbox…</p></div>" comes out
 * as a bare paragraph). A <div> of text alone ("<div class=caption>A seal on the bank. Photo:
 * …</div>") goes the same way: Readability first puts its text into a <p>. Run on the page
 * before Readability: copies the class of such a div onto its paragraph, or puts the text
 * into that paragraph with the class, when the class is one the pruning pass acts on.
 */
export function carryClasses(body: PruneElement & { querySelectorAll(selector: string): ArrayLike<PruneElement> }): void {
  const seen = new Map<string, ClassKind>();
  for (const div of Array.from(body.querySelectorAll('div[class]')) as ContainerElement[]) {
    const only = div.children.length === 1 ? div.children[0]! : undefined;
    if (only && only.tagName.toUpperCase() === 'P') {
      if (classKind(div, seen)) only.setAttribute('class', `${only.getAttribute('class') ?? ''} ${div.getAttribute('class') ?? ''}`.trim());
      continue;
    }
    if (!classKind(div, seen) || !Array.from(div.children).every((c) => INLINE_TAGS.has(c.tagName.toUpperCase())) || !norm(div.textContent)) continue;
    const p = div.ownerDocument.createElement('p');
    p.setAttribute('class', div.getAttribute('class') ?? '');
    for (const node of Array.from(div.childNodes)) p.appendChild(node);
    div.appendChild(p);
  }
}

const LINK_BLOCKS = new Set(['P', 'LI', 'UL', 'OL', 'DL', 'DIV', 'SECTION', 'TABLE', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE']);
/**
 * The language a code block's class names (Prism's and highlight.js's "language-js", "lang-js"),
 * which turndown writes after the fence. Every other class goes, so this one is kept by name.
 */
export function codeLanguage(cls: string): string | undefined {
  for (const c of cls.split(/\s+/)) {
    const m = /^lang(?:uage)?-([\w+#.-]{1,30})$/i.exec(c);
    if (m) return m[1]!.toLowerCase();
  }
  return undefined;
}

/**
 * Turndown reads a fenced block's language from the <code> inside its <pre> only; a page that
 * names it on the <pre> ("<pre class=language-py><code>") gets it copied onto that <code>.
 */
function carryLanguage(pre: PruneElement, lang: string): void {
  const code = pre.children[0];
  if (!code || pre.childNodes[0]?.nodeType !== 1 || code.tagName.toUpperCase() !== 'CODE' || codeLanguage(code.getAttribute('class') ?? '')) return;
  code.setAttribute('class', `language-${lang}`);
}

/**
 * A caption leaves the text (the benchmark's articles have none), but its words are what a
 * figure's one picture shows: they become the picture's alt when the page gave it none, so
 * the Markdown reads "![Protesters on Nathan Road](…)" and not "![](…)". Returns whether the
 * figure's pictures now say what the caption says (its alt, given here or by the page), so
 * the caption may go; a caption outside a figure, or an empty one, may go too.
 */
function captionAsAlt(caption: PruneElement): boolean {
  let figure = caption.parentElement;
  for (let level = 0; figure && figure.tagName.toUpperCase() !== 'FIGURE' && level < 2; level++) figure = figure.parentElement;
  if (!figure || figure.tagName.toUpperCase() !== 'FIGURE') return true;
  const images: PruneElement[] = [];
  const find = (el: PruneElement): void => {
    for (const child of Array.from(el.children)) {
      if (child.tagName.toUpperCase() === 'IMG') images.push(child);
      else if (child !== caption) find(child);
    }
  };
  find(figure);
  const text = norm(caption.textContent);
  if (!text) return true;
  if (images.length === 1 && !(images[0]!.getAttribute('alt') ?? '').trim()) {
    images[0]!.setAttribute('alt', text.length > 300 ? `${text.slice(0, 299)}…` : text);
    return true;
  }
  return images.some((img) => norm(img.getAttribute('alt')) === text);
}

/**
 * Headings, which the link-density rule leaves alone once the article's text has begun: a
 * heading that is a link names what the section under it is about (a roundup's "### [Satechi
 * 72W Car Charger](…)" over its review), and a roundup lost every product's name. One before
 * any text is the section's or site's name over the article, and goes; a list or box of linked
 * headings (a "More stories" rail) is still dropped whole, as its holder is link-dense too; a
 * pointer such as "More:" still goes by its phrase.
 */
const HEADINGS = new Set(['H2', 'H3', 'H4', 'H5', 'H6']);

/** Whether any of the article's text (what the pass has kept so far) comes before `el` inside `root`. */
function textBefore(el: PruneElement, root: PruneElement): boolean {
  for (let n = el; n !== root && n.parentElement; n = n.parentElement) {
    for (const sibling of Array.from(n.parentElement.childNodes)) {
      if (sibling === (n as unknown)) break;
      if (norm(sibling.textContent)) return true;
    }
  }
  return false;
}

/**
 * Whether `el` heads one of several posts the article holds side by side, each an <article>
 * (a blog's front page, an archive): the first post's linked heading names that post, as the
 * others' do, and is no section's name over the article. It was dropped, so the first post
 * of a front page came without its title.
 */
function headsListedPost(el: PruneElement, root: PruneElement): boolean {
  for (let n = el.parentElement; n && n !== root; n = n.parentElement) {
    if (n.tagName.toUpperCase() !== 'ARTICLE') continue;
    const siblings = Array.from(n.parentElement?.children ?? []);
    return siblings.filter((c) => c.tagName.toUpperCase() === 'ARTICLE').length >= 2;
  }
  return false;
}

/** Share of a block's text in links above which it is a list of links, not prose. */
const LINK_DENSITY = 0.8;

const textLength = (s: string | null): number => (s ?? '').replace(/\s+/g, ' ').length;

/**
 * Removes from `root` (the article Readability returned, classes kept) what is not the
 * article's text, then drops the class attributes as Readability would have. `rules` limits
 * the pass to some rules (the fidelity bench measures each alone). One walk: class, tag and
 * role rules on the way down, link density and phrases on the way up from the lengths the
 * children report, so no subtree is measured twice.
 */
export function pruneArticle(root: PruneElement, rules: readonly PruneRule[] = PRUNE_RULES): void {
  const on = new Set(rules);
  // A class word may mark the article's own container ("post has-share-buttons"): never drop
  // an element holding this share of the article's text.
  const guard = norm(root.textContent).length * 0.3;
  const small = (el: PruneElement): boolean => norm(el.textContent).length < guard;
  const seen = new Map<string, ClassKind>();

  /** Whether a rule read from the element itself (not its text) drops it. */
  const dropOnEntry = (el: PruneElement, tag: string): boolean => {
    if (on.has('tag') && DROP_TAGS.has(tag)) return true;
    const role = el.getAttribute('role');
    if (on.has('role') && role && DROP_ROLES.has(role.toLowerCase())) return true;
    const kind = classKind(el, seen);
    if (!kind) return false;
    if (kind === 'hidden' && on.has('hidden')) return small(el);
    if (kind === 'caption' && on.has('caption')) return true;
    if (kind === 'boilerplate' && on.has('boilerplate')) return small(el);
    return false;
  };

  /** Prunes inside `el`, and `el` itself unless it is the root; returns its [text, link text] lengths after. */
  // `afterWord`: the element follows text inside a pop-up's holder (the word the box is about).
  const walk = (el: PruneElement, isRoot: boolean, afterWord = false): [number, number] => {
    const tag = el.tagName.toUpperCase();
    const popup = namesPopup(el);
    if (afterWord && popup && on.has('hidden')) {
      el.remove();
      return [0, 0];
    }
    // A figure's <figcaption> that its pictures do not say (they have alts of their own, there
    // are several, or none: a listing's "Figure 3: Latency under load") stays for the Markdown
    // and html, under what it names; it was lost. The text still leaves it out (textOf's captions).
    if (!isRoot && dropOnEntry(el, tag)) {
      const said = tag === 'FIGCAPTION' || classKind(el, seen) === 'caption' ? captionAsAlt(el) : true;
      if (tag !== 'FIGCAPTION' || said) {
        el.remove();
        return [0, 0];
      }
    }
    const cls = el.getAttribute('class');
    const lang = cls !== null && (tag === 'PRE' || tag === 'CODE') ? codeLanguage(cls) : undefined;
    if (cls !== null) {
      const keep: string[] = cls.split(/\s+/).filter((c) => c === 'page');
      if (lang) keep.push(`language-${lang}`);
      if (keep.length) el.setAttribute('class', keep.join(' '));
      else el.removeAttribute('class');
    }
    if (tag === 'PRE' && lang) carryLanguage(el, lang);
    let text = 0;
    let links = 0;
    for (const child of Array.from(el.childNodes)) {
      if (child.nodeType === 3) text += textLength(child.textContent);
      else if (child.nodeType === 1) {
        const [t, l] = walk(child as unknown as PruneElement, false, popup && !isRoot && text > 0);
        text += t;
        links += l;
      }
    }
    if (tag === 'A') links = text;
    if (isRoot || !LINK_BLOCKS.has(tag) || text === 0) return [text, links];
    if (on.has('linkDense') && text < guard && links / text >= LINK_DENSITY && (!HEADINGS.has(tag) || !(textBefore(el, root) || headsListedPost(el, root)))) {
      el.remove();
      return [0, 0];
    }
    if (on.has('phrase') && text <= PHRASE_MAX * 2) {
      const t = norm(el.textContent);
      if (t.length <= PHRASE_MAX && PHRASE.test(t)) {
        el.remove();
        return [0, 0];
      }
    }
    return [text, links];
  };
  walk(root, true);
}
