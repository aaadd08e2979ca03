/**
 * Pages that list several posts: a blog's front page, an archive, a category or tag page,
 * each post an <article> with its heading and its text (in full or as an excerpt). Readability
 * looks for the one block that holds the most prose; on such a page that is often one post's
 * body, and the rest were dropped: a user who fetched a blog's front page got one post, without
 * its heading. The posts are found before Readability changes the page, and read one by one
 * when its article misses some of them.
 */

// linkedom's element, reduced to what the pass reads.
export interface ListingElement {
  localName: string;
  textContent: string | null;
  outerHTML: string;
  parentElement: ListingElement | null;
  children: ArrayLike<ListingElement>;
  closest(selector: string): ListingElement | null;
  querySelector(selector: string): ListingElement | null;
  querySelectorAll(selector: string): ArrayLike<ListingElement>;
  getElementsByTagName(name: string): ArrayLike<ListingElement>;
  getAttribute(name: string): string | null;
}

export interface ListedPost {
  /** The post's markup as the page had it, to be read as a page of its own. */
  html: string;
  /** Its longest paragraph, spaces collapsed: in the article if Readability kept the post. */
  probe: string;
  /** Its heading's text. */
  heading: string;
  /** Its heading's markup: a post read alone often comes back as its body, without it. */
  headingHtml: string;
}

/**
 * The text a post holds outside links, at least: a blog's excerpt (55 words by default in the
 * most common blog engine) is about 300 characters, a related story's card (a linked headline
 * and a line of teaser) under 200.
 */
const POST_TEXT = 200;

const norm = (s: string | null): string => (s ?? '').replace(/\s+/g, ' ').trim();

interface ListingNode {
  nodeType: number;
  localName?: string;
  textContent: string | null;
  childNodes: ArrayLike<ListingNode>;
}

const HEADINGS = new Set(['h1', 'h2', 'h3']);

/**
 * Characters of `el`'s text outside links (each run of white space one), and whether it holds
 * a heading: one walk, where a query for the links and one for a heading cost 2 ms on a news
 * page of 60 cards.
 */
function measure(el: ListingNode): { text: number; heading: boolean } {
  let text = 0;
  let heading = false;
  const walk = (node: ListingNode): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) text += (child.textContent ?? '').replace(/\s+/g, ' ').length;
      else if (child.nodeType === 1 && child.localName !== 'a') {
        if (HEADINGS.has(child.localName ?? '')) heading = true;
        walk(child);
      } else if (child.nodeType === 1 && !heading && child.childNodes.length) {
        // A card's heading inside its link counts; the link's words do not.
        for (const h of Array.from(child.childNodes)) if (h.nodeType === 1 && HEADINGS.has(h.localName ?? '')) heading = true;
      }
    }
  };
  walk(el);
  return { text, heading };
}

const NOT_POSTS = new Set(['article', 'nav', 'aside', 'footer']);
const NOT_POST_ROLES = new Set(['complementary', 'navigation']);

/** Inside another article, navigation, a sidebar or a footer. */
function outsidePosts(el: ListingElement): boolean {
  for (let at = el.parentElement; at; at = at.parentElement) {
    if (NOT_POSTS.has(at.localName) || NOT_POST_ROLES.has(at.getAttribute('role') ?? '')) return true;
  }
  return false;
}

/** Where a post sits among its siblings: its parent, or above a wrapper that holds only the post. */
function holderOf(el: ListingElement): ListingElement | null {
  let at = el;
  while (at.parentElement && at.parentElement.children.length === 1 && at.parentElement.localName !== 'body') at = at.parentElement;
  return at.parentElement;
}

/**
 * The posts a page lists, read before Readability changes it: <article> elements (none inside
 * another, none in navigation, a sidebar or a footer) with a heading and text of their own,
 * at least two under one holder. Empty when the page lists no posts.
 */
export function listedPosts(body: ListingElement): ListedPost[] {
  const groups = new Map<ListingElement, ListingElement[]>();
  for (const a of Array.from(body.getElementsByTagName('article'))) {
    if (outsidePosts(a)) continue;
    const { text, heading } = measure(a as unknown as ListingNode);
    if (!heading || text < POST_TEXT) continue;
    const holder = holderOf(a);
    if (!holder) continue;
    groups.set(holder, [...(groups.get(holder) ?? []), a]);
  }
  let best: ListingElement[] = [];
  for (const posts of groups.values()) if (posts.length > best.length) best = posts;
  if (best.length < 2) return [];
  return best.map((a) => {
    let probe = '';
    for (const p of Array.from(a.querySelectorAll('p'))) {
      const t = norm(p.textContent);
      if (t.length > probe.length) probe = t;
    }
    const heading = a.querySelector('h1, h2, h3');
    // A card's heading inside its link (<a href><h2>…</h2></a>) keeps the link.
    const linked = heading?.parentElement?.localName === 'a' && heading.parentElement.children.length === 1 ? heading.parentElement : heading;
    return { html: a.outerHTML, probe: probe.slice(0, 120), heading: norm(heading?.textContent ?? null), headingHtml: linked?.outerHTML ?? '' };
  });
}

/**
 * The posts to read one by one in place of the article Readability found, if any: all of them
 * when that article holds some, but not all, or not their headings (it drops a heading in a
 * header whose class reads as chrome, as blog themes' "entry-header" does). A page whose title
 * names one of the posts is that post's own page, showing the next post below it: the post
 * it names, when Readability took the other. An article that holds none of the posts is
 * something else (a post whose comments are articles).
 */
export function postsToRead(posts: readonly ListedPost[], articleText: string, pageTitle: string): readonly ListedPost[] {
  if (posts.length < 2) return [];
  const text = norm(articleText);
  const has = (p: ListedPost): boolean => p.probe !== '' && text.includes(p.probe);
  const title = norm(pageTitle).toLowerCase();
  const named = posts.filter((p) => p.heading && title.includes(p.heading.toLowerCase()));
  if (named.length > 0) return named.length === 1 && !has(named[0]!) ? named : [];
  const kept = posts.filter(has);
  return kept.length > 0 && (kept.length < posts.length || kept.some((p) => p.heading !== '' && !text.includes(p.heading))) ? posts : [];
}
