/**
 * Honest outcomes (SPEC §5.9): is this HTML answer the page, or something standing in its
 * place? A pure function of the body, the status and (optionally) the readable text and the
 * similarity to what the host answers for a random path, so the fetcher, the renderer and
 * the benchmark all judge a page the same way.
 *
 * False positives are worse than misses: a real page wrongly failed is content the user
 * never sees, a stand-in wrongly passed is one they can still spot. So every rule needs a
 * strong sign (a vendor's own marker, or a phrase in the title or a heading) AND a page
 * that has little else to say. No rule names a site.
 */

import { decodeEntities } from '../../shared/entities';
import { literally } from '../../shared/grep';
import { endTagAt, MAX_REFRESH_SECONDS, metaRefresh, refreshValue } from './markup';
import { siteHost } from './url';

export type PageReason = 'challenge' | 'login' | 'consent' | 'soft404' | 'needs_js';

export interface ClassifyInput {
  html: string;
  /** The HTTP status the page came with. */
  status: number;
  url: string;
  /** The extracted readable text, when the caller has it. */
  text?: string;
  /**
   * How much this page looks like what the same host answered for a random path that
   * cannot exist (0..1, from probeSimilarity); undefined when no probe was made.
   */
  randomPathSimilarity?: number;
  /**
   * The page is the DOM after its scripts ran in a browser: the text its data islands carry
   * and it does not show is no longer a sign that it needs them to run.
   */
  rendered?: boolean;
  /**
   * Of a rendered page: its scripts did not all run (one threw, its server answered one with an
   * error, its host did not answer, or the guard refused it), so what it shows may not be what a
   * browser shows.
   */
  scriptsFailed?: boolean;
}

export interface Classification {
  reason?: PageReason;
  warnings: string[];
  /** Which signals decided (for meta and the benchmark's report), never user content. */
  signals?: string[];
}

/** Below this much visible text a real page is "thin": ok, but worth a warning. ~60 words; a Chinese, Japanese or Korean character counts twice. */
export const THIN_CHARS = 400;
/**
 * Interstitials say little: the largest stand-ins in the corpora (a consent wall listing its
 * purposes, a bank's sign-in page with its notices) have ~2,400 characters of visible text;
 * the articles have several thousand.
 */
const SHORT_CHARS = 2500;
/** A soft-404 sits in the site's full template: navigation and footer around one sentence. */
const TEMPLATE_CHARS = 8000;

interface Page {
  html: string;
  title: string;
  headings: string;
  /**
   * The headings that name the page itself: its h1s with text when it has one (not the site's
   * name, as a logo in an h1 is), else all its headings. An h2 "We value your privacy" or an h3 "Sign in" under a page's h1 "Walnut desk
   * lamp" names a cookie banner or a sign-in box beside the page, not a wall in its place.
   */
  ownHeadings: string[];
  /** The text of every h1 that has some, the site's name included. */
  h1s: string[];
  /** The h1s with text that are not the site's name: the headline, where the page has one. */
  ownH1s: string[];
  /** Where in `body` the first of ownH1s starts; -1 where there is none. */
  ownH1At: number;
  /** Where in `body` each of ownHeadings starts. */
  ownHeadingsAt: number[];
  /** Visible text of the body: no script, style, noscript, template, svg; entities decoded. */
  visible: string;
  noscript: string;
  scriptBytes: number;
  /** The body with comments and UNSEEN elements taken out, for the rules that read its markup. */
  body: string;
}

/**
 * Where the matches of a pattern that ends in one of `closers` (lower-case, each then ">")
 * can end at the latest: just past the last closer's ">". Past it no match can end, and from
 * every start there the engine read on to the end of the text: a page of 20,000 unclosed
 * <script tags (120 KB) took 17 s. Matching up to here finds the very same matches.
 */
function lastEnd(text: string, ...closers: string[]): number {
  let at = -1;
  for (const c of closers) if (!c.startsWith('</')) at = Math.max(at, text.lastIndexOf(c));
  const tags = closers.filter((c) => c.startsWith('</'));
  if (tags.length) at = Math.max(at, lastEndTag(text, tags));
  if (at < 0) return 0;
  const gt = text.indexOf('>', at);
  return gt < 0 ? text.length : gt + 1;
}

const endTagPatterns = new Map<string, RegExp>();

/**
 * Where the last of these end tags (lower case, "</name") is in `text`, in any case; -1 if
 * none. One forward scan by the regex engine: not a lower-case copy of the page (judging a
 * page took 44% longer), nor a walk back over every "</" of the page from its end, which for
 * a "</title" near the top was 2.7 ms of the 6.5 it took to judge a benchmark page.
 */
function lastEndTag(text: string, tags: string[]): number {
  const key = tags.join(' ');
  let re = endTagPatterns.get(key);
  if (!re) endTagPatterns.set(key, (re = new RegExp(tags.join('|'), 'gi')));
  re.lastIndex = 0;
  let last = -1;
  for (let m = re.exec(text); m; m = re.exec(text)) last = m.index;
  return last;
}

/** `text.replace(re, fn)` for a global `re` whose matches end in one of `closers`, in one pass. */
function replaceClosed(text: string, re: RegExp, fn: (m: string, ...groups: string[]) => string, ...closers: string[]): string {
  const end = lastEnd(text, ...closers);
  return text.slice(0, end).replace(re, fn) + text.slice(end);
}

const squash = (s: string): string => decodeEntities(replaceClosed(s, /<[^>]*>/g, () => ' ', '>')).replace(/\s+/g, ' ').trim();

/** Elements whose content is not the page's visible text (script and noscript are read apart). */
const UNSEEN = new Set(['script', 'noscript', 'style', 'template', 'svg', 'textarea', 'select']);

/**
 * The page as the rules read it. One scan from "<" to "<" takes out comments and the UNSEEN
 * elements: four regex passes over the page did (case-insensitive, each after a scan for
 * where its matches could end), 4 of the 6.5 ms it took to judge a benchmark page.
 */
function parsePage(html: string): Page {
  let scriptBytes = 0;
  const noscripts: string[] = [];
  const kept: string[] = [];
  let from = 0;
  // Kinds of piece with no end after some start: none after a later start either.
  const endless = new Set<string>();
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) {
    let end = -1;
    if (html.startsWith('!--', at + 1)) {
      const close = endless.has('--') ? -1 : html.indexOf('-->', at + 4);
      if (close < 0) endless.add('--');
      else end = close + 3;
    } else {
      const name = tagNameAt(html, at + 1);
      if (!UNSEEN.has(name) || endless.has(name)) continue;
      const open = html.indexOf('>', at);
      const close = open < 0 ? undefined : closingTag(html, name, open + 1);
      if (!close) {
        endless.add(name);
        continue;
      }
      if (name === 'script') scriptBytes += close.start - open - 1;
      else if (name === 'noscript') noscripts.push(html.slice(open + 1, close.start));
      end = close.end;
    }
    if (end < 0) continue;
    kept.push(html.slice(from, at), ' ');
    from = end;
    at = end - 1;
  }
  kept.push(html.slice(from));
  const stripped = kept.join('');
  const title = squash(firstElement(stripped, 'title') ?? '');
  const bodyStart = stripped.search(/<body\b/i);
  const body = bodyStart >= 0 ? stripped.slice(bodyStart) : replaceClosed(stripped, /<head\b[\s\S]*?<\/head\s*>/i, () => ' ', '</head');
  const heads = [...body.slice(0, lastEnd(body, '</h1', '</h2', '</h3')).matchAll(/<h([1-3])\b[^>]*>([\s\S]*?)<\/h[1-3]\s*>/gi)].map((m) => ({ level: m[1], text: squash(unlinked(m[2] ?? '')), at: m.index }));
  // An h1 that is the site's name (the whole title, or its last part: "Sign in | Acme") is its logo.
  const brand = new Set([title, ...titleSegments(title).slice(1)].filter(Boolean));
  const own = heads.filter((h) => h.level === '1' && h.text && !brand.has(h.text));
  const h1s = own.map((h) => h.text);
  return {
    html,
    title,
    headings: heads.map((h) => h.text).join(' | '),
    ownHeadings: h1s.length ? h1s : heads.map((h) => h.text),
    ownHeadingsAt: (h1s.length ? own : heads).map((h) => h.at),
    h1s: heads.filter((h) => h.level === '1' && h.text).map((h) => h.text),
    ownH1s: h1s,
    ownH1At: own[0]?.at ?? -1,
    visible: squash(body),
    noscript: squash(noscripts.join(' ')),
    scriptBytes,
    body,
  };
}

/**
 * The page the judge read last (classifyPage), for what reads the same page after it: the
 * teaser check under its extraction (asksToPay, signInInArticle), its similarity to the host's
 * page for a random path, and its judging again with that similarity. Each parsed it anew: on
 * the article benchmark's 91 pages with a wall's box under each, the teaser check after the
 * judge took 3.8 and 5.8 ms a page, with the judge's parse 2.5 and 2.1 (two alternated runs on
 * a loaded machine). One page is kept, until the next is judged.
 */
let judged: Page | undefined;
const pageOf = (html: string): Page => (judged?.html === html ? judged : parsePage(html));

/**
 * Markup without the text of its links. A link's text names the page it leads to: a blog's
 * front page with a post "Just a moment: what a CDN checks" as an h2 link read as a challenge,
 * one "Cookie consent banners, measured" as a consent wall, and a bookmarks page whose first
 * link says "…returns kittens if files could not be found" as a soft 404. A stand-in's own
 * words ("Page not found", "Just a moment...", "Sign in") are not links in any page of the
 * corpora.
 */
const unlinked = (html: string): string => (html.includes('<') ? replaceClosed(html, /<a\b[^>]*>[\s\S]*?<\/a\s*>/gi, () => ' ', '</a') : html);

/** The tag name that starts at `i` (just past a "<"), lower case: its run of word characters, as /<name\b/i reads it. */
function tagNameAt(text: string, i: number): string {
  let j = i;
  for (let c = text.charCodeAt(j); (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95; c = text.charCodeAt(++j));
  return j === i ? '' : text.slice(i, j).toLowerCase();
}

/** The first "</name" (any case) from `from` that ends in optional blanks and ">": where it starts and ends. */
function closingTag(text: string, name: string, from: number): { start: number; end: number } | undefined {
  for (let at = endTagAt(text, name, from); at >= 0; at = endTagAt(text, name, at + 2)) {
    let j = at + 2 + name.length;
    while (j < text.length && /\s/.test(text[j]!)) j++;
    if (text.charCodeAt(j) === 62) return { start: at, end: j + 1 };
  }
  return undefined;
}

/** The content of the first element `name` (lower case) that has an end tag, as /<name\b[^>]*>([\s\S]*?)<\/name\s*>/i finds it. */
function firstElement(text: string, name: string): string | undefined {
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    if (tagNameAt(text, at + 1) !== name) continue;
    const open = text.indexOf('>', at);
    const close = open < 0 ? undefined : closingTag(text, name, open + 1);
    // No end after this start: none after a later one either.
    return close && text.slice(open + 1, close.start);
  }
  return undefined;
}

/**
 * A title or heading without what it quotes: "Why ‘Page not found’ errors hurt your ranking"
 * mentions the words, a stand-in says them. An ASCII ' quotes only where it opens after a
 * blank and closes before one: an apostrophe ("can't find") does neither.
 */
const QUOTED = /[“„«‹][^“”„«»‹›]{1,80}[”“»›]|‘[^‘’]{1,80}’|「[^「」]{1,80}」|『[^『』]{1,80}』|"[^"]{1,80}"|(?<=^|[\s([])'[^']{1,80}'(?=$|[\s.,:;!?)\]])/g;
const said = (s: string): string => s.replace(QUOTED, ' ');

// ---- an article's prose ---------------------------------------------------------------

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/** Where a paragraph whose end tag was left out (HTML allows it) ends at the latest: the next block. */
const BLOCK_EDGE = /<\/?(?:p|div|h[1-6]|ul|ol|li|dl|table|form|section|article|main|aside|header|footer|nav|blockquote|pre|body)\b/gi;
/** A paragraph that ends a sentence, in the scripts the corpora have; an excerpt's "…" does not. */
const SENTENCE_END = /[.!?。！？؟।]["”’»)\]]?$/;

/**
 * A page that names itself an article (Open Graph's og:type, schema.org's JSON-LD type), as
 * news sites and blogs mark every post. No stand-in in the corpora carries it (their markup,
 * where they have any, says "website"), so 2 paragraphs of prose under it are an article: a
 * news brief titled "Are you a robot? Why CAPTCHAs get harder" was a challenge.
 */
const ARTICLE_MARKUP =
  /<meta\b(?=[^<>]*\bproperty\s*=\s*["']?og:type\b)(?=[^<>]*\bcontent\s*=\s*["']?article\b)[^<>]*>|["']@type["']\s*:\s*\[?\s*["'](?:\w*Article|BlogPosting|LiveBlogPosting|Report)["']/i;

/**
 * Whether the page holds an article of its own: at least 3 paragraphs of 120 or more
 * characters that end a sentence (a Chinese, Japanese or Korean character counts twice: a
 * sentence there takes about half the characters). No stand-in in the corpora has
 * more than 2 such paragraphs outside a vendor's challenge form (a consent wall explaining
 * its purposes has 2, a bank's sign-in page 1), while a three-paragraph news brief has them.
 * It keeps the rules that read only words (a title's "Just a moment", a heading's "Page not
 * found", "Cookie consent") off a real article about those very things. A page marked as an
 * article (ARTICLE_MARKUP) needs 2.
 */
function hasArticleProse(p: Page): boolean {
  let count = 0;
  const opens = /<p\b[^<>]*>/gi;
  for (let m = opens.exec(p.body); m; m = opens.exec(p.body)) {
    BLOCK_EDGE.lastIndex = opens.lastIndex;
    const edge = BLOCK_EDGE.exec(p.body);
    const text = squash(p.body.slice(opens.lastIndex, edge ? edge.index : p.body.length));
    if (text.length + (text.match(CJK)?.length ?? 0) < 120 || !SENTENCE_END.test(text)) continue;
    if (++count >= 3 || (count === 2 && ARTICLE_MARKUP.test(p.html))) return true;
  }
  return false;
}

// ---- challenge ------------------------------------------------------------------------

/**
 * Markers of a challenge form itself: no real page carries them, so they decide even when
 * hidden filler (Cloudflare's 2020 page hides 5 KB of obfuscated arithmetic in a div) makes
 * the page look long.
 */
const CHALLENGE_FORMS: readonly [string, RegExp][] = [
  ['cloudflare-challenge', /_cf_chl_opt|cf_chl_(?:jschl|captcha|prog|rc)|id="challenge-(?:form|stage|running|body-text)"|cf-browser-verification|jschl[_-](?:vc|answer)|cf_captcha_kind|\/cdn-cgi\/challenge-platform\/h\/[bg]\/(?:orchestrate|jsch|captcha)/i],
  ['perimeterx', /id="px-captcha"|_pxcaptcha|px-captcha-(?:wrapper|container)|captcha\.px-cdn\.net/i],
  ['datadome', /geo\.captcha-delivery\.com\/captcha|interstitial\.captcha-delivery\.com/i],
];

/** Markers a vendor also puts on the real pages it protects: they decide on short pages only. */
const CHALLENGE_MARKERS: readonly [string, RegExp][] = [
  ['cloudflare-block', /cf-error-details|id="cf-wrapper"[\s\S]{0,4000}(?:cf-error-type|error code|access denied|you have been blocked|sorry, you have been blocked)/i],
  ['perimeterx', /\/captcha\/captcha\.js\?a=c&u=|_pxappid/i],
  ['datadome', /ct\.captcha-delivery\.com|captcha-delivery\.com/i],
  ['incapsula', /incapsula incident id|<iframe[^>]+_incapsula_resource/i],
  ['sucuri', /sucuri_cloudproxy_js|sucuri website firewall|cloudproxy@sucuri\.net|sucuri\.net\/privacy-policy/i],
  ['aws-waf', /awswafintegration|gokuprops|aws-waf-token|challenge\.js"[^>]*><\/script>[\s\S]{0,400}awswaf/i],
  ['f5-asm', /window\.bobcmn|\/tspd\/\d|the requested url was rejected\. please consult with your administrator/i],
  ['shieldsquare', /shieldsquare captcha|perfdrive\.com|validate\.perfdrive/i],
  ['ddos-guard', /ddos-guard\.net\/|check\.ddos-guard|id="ddg-captcha"|ddos-guard<\/title>/i],
  ['google-sorry', /detected unusual traffic from your computer network|action="index"[^>]*>[\s\S]{0,600}name="continue"[\s\S]{0,600}g-recaptcha|\/sorry\/index\?/i],
  ['akamai-reference', /reference&#32;&#35;\d|reference #\d+\.[0-9a-f]+\.\d+\.[0-9a-f]+|errors\.edgesuite\.net/i],
];

/** Phrases of a block or challenge page, read in the title and headings (or a tiny body). */
const CHALLENGE_PHRASES =
  /\b(?:just a moment|attention required|access denied|access to this page has been denied|request (?:unsuccessful|blocked|rejected)|you have been blocked|checking (?:your browser|if the site connection is secure)|verify(?:ing)? (?:you are|that you are|you're) (?:a )?human|are you a (?:robot|human)|i'?m not a robot|security check|bot (?:check|verification|detection)|press (?:&|and) hold|human verification|one more step|unusual traffic|please (?:wait|stand by)[^|]{0,40}(?:redirect|verif|check)|ddos protection|please complete the security check|blocked diagnostic|pardon our interruption|additional security check is required|(?:think|thinks|believe|believes|suspect|suspects) (?:that )?you(?: are|'re| might be| may be) (?:a )?(?:bot|robot|automated)|request (?:an )?unblock)\b/;
/**
 * A check's gate said only in its noscript, the page itself a script that sets a cookie and
 * reloads ('You are being redirected...', and in the noscript 'Please enable javascript before
 * you are allowed to see this page'): a page that merely needs JavaScript says it needs it, not
 * that it must allow the visitor in.
 */
const NOSCRIPT_GATE = /\bbefore you (?:are|will be) (?:allowed|permitted) to (?:see|view|access|visit|enter) this (?:page|site|website)\b/;
/**
 * A rate-limit page served as a success: named so in a whole title segment or heading ("Too
 * Many Requests", "429 - Rate limit exceeded"), or said so in a few words. A headline that
 * goes on ("Too many requests: how rate limits protect APIs") is about one.
 */
const RATE_LIMIT_NAME = /^(?:(?:error |http )?429\W*)?(?:too many requests|rate limit(?:ed| exceeded| reached)?)\W*$/i;
const RATE_LIMIT_TEXT = /\b(?:you(?:'ve| have) (?:sent|made) too many requests|you(?:'ve| have) been rate[- ]limited|rate limit (?:exceeded|reached))\b/i;

/**
 * A block page that says the visitor's address or access was banned or blocked (Cloudflare's
 * error 1006 "has banned your IP address", "your access to … has been temporarily blocked"):
 * read only on a page already judged a challenge, as an article about bans says the same.
 */
const BAN_TEXT = /\b(?:banned your (?:ip|address|network)|your (?:ip|address|network|access)\b[\s\S]{0,80}?\b(?:has|have|is|was) been (?:temporarily |permanently )?(?:banned|blocked|blacklisted))\b/;

/**
 * A challenge's signal, or 'ip-ban' where the page says it is a ban: no check to pass then. A
 * rate-limit page ("your IP has been blocked for too many requests") stays one, retried as busy.
 */
function challengeSignal(p: Page, signal: string): string {
  return !signal.startsWith('rate-limit') && BAN_TEXT.test(said(p.visible).toLowerCase()) ? 'ip-ban' : signal;
}

function challenge(p: Page, short: boolean, few: boolean, prose: boolean, status: number, url: string, firstWords?: () => string): string | undefined {
  // The length first, the markers only where it lets them decide: each is a scan of the
  // whole page, and an article (160 KB of HTML) took 5 ms to judge, most of it here.
  // 20,000: ten times the largest interstitial's visible text, well below an article's.
  if (p.visible.length < 20_000) for (const [name, re] of CHALLENGE_FORMS) if (re.test(p.html)) return name;
  // A vendor's marker decides alone only on a page with little to say: the same scripts
  // ride along on real pages the vendor protects.
  if (short || p.visible.length < TEMPLATE_CHARS / 2) for (const [name, re] of CHALLENGE_MARKERS) if (re.test(p.html)) return name;
  const head = said(`${p.title} | ${p.headings}`).toLowerCase();
  if (few && !prose && CHALLENGE_PHRASES.test(head)) return 'challenge-title';
  if (p.visible.length < 600 && !prose && CHALLENGE_PHRASES.test(said(squash(unlinked(p.body))).toLowerCase())) return 'challenge-text';
  // In a site's template, the block's first sentences ("Request blocked.") under headings that
  // say only "403 ERROR": where the page's own words are few (firstWords is given only then).
  if (firstWords && !prose && CHALLENGE_PHRASES.test(said(firstWords()).toLowerCase())) return 'challenge-text';
  if (firstWords && !prose && NOSCRIPT_GATE.test(p.noscript.toLowerCase())) return 'challenge-noscript-gate';
  // Served as a success, or as a 403 (firewalls answer a rate limit so too, and "the page may
  // need a login" was no answer to it): a 429's or a 503's page is the busy answer it says, and
  // retried as one. 1,200: a rate-limit page is a line or two; a reference page on 429 says more.
  const limited = (status >= 200 && status < 300) || status === 403;
  if (limited && p.visible.length < 1200 && !prose && [...titleSegments(p.title), ...p.ownHeadings].some((h) => RATE_LIMIT_NAME.test(h))) return 'rate-limit-title';
  if (limited && p.visible.length < 600 && !prose && RATE_LIMIT_TEXT.test(said(p.visible))) return 'rate-limit-text';
  // A bare CAPTCHA widget is the page: a reCAPTCHA/hCaptcha/Turnstile form with almost no text.
  if (p.visible.length < 600 && /class="(?:g-recaptcha|h-captcha|cf-turnstile)"|hcaptcha\.com\/1\/api\.js|challenges\.cloudflare\.com\/turnstile/i.test(p.html) && /captcha|robot|human|verif/.test(`${head} ${p.visible.toLowerCase()}`)) {
    return 'captcha-widget';
  }
  // A vendor's script and nothing else: Imperva's resource stub, Cloudflare's bot-management
  // check. The same scripts ride on the real pages they protect, which have text.
  if (p.visible.length < 80 && /_incapsula_resource\?/i.test(p.html)) return 'incapsula-stub';
  if (p.visible.length < 80 && /\/cdn-cgi\/bm\/cv\/|__cf\$cv\$params/i.test(p.html)) return 'cloudflare-bot-check';
  // A check's script that sets its cookie and sends the browser back round, answered as a
  // success: a browser may pass it (the fetcher renders it under auto, as it renders a shell).
  if (status < 400 && sendsRound(p, url, false)) return 'cookie-reload';
  // A stub with no text, answered with a block status, that shows a check's sign: its script
  // sets a cookie and sends the browser on, or its noscript says the visitor is let in only
  // with JavaScript (or says a check's words). Not any inline script: an app's shell served
  // under a 403 (a host's fallback to its index page) has its runtime inline or not, and
  // failed as a challenge when it had, as "upstream 403" when it had not.
  if ((status === 403 || status === 429 || status === 503) && p.visible.length < 80 && (sendsRound(p, url, true) || checkInNoscript(p))) return 'blocked-stub';
  if (refreshesItself(p, url)) return 'self-refresh';
  return undefined;
}

/** The inline scripts of a page, each as its text. */
const INLINE_SCRIPTS = /<script\b(?![^<>]*\bsrc\s*=)[^<>]*>([\s\S]*?)<\/script\s*>/gi;
/** A script's write of a cookie: `document.cookie = …`, not a read or a comparison. */
const SETS_COOKIE = /\bdocument\s*\.\s*cookie\s*=(?!=)/;
/** A script's sending the browser to the address it is on: a reload, or the location set or replaced from itself (location.pathname + "?vc=" + t). */
const RELOADS = /\blocation\s*\.\s*reload\s*\(|\blocation(?:\s*\.\s*href)?\s*=(?!=)\s*(?:(?:window|document|self|top)\s*\.\s*)?location\b|\blocation\s*\.\s*(?:replace|assign)\s*\(\s*(?:(?:window|document|self|top)\s*\.\s*)?location\b/;
/** A script's sending the browser to an address it writes out: location = "…", location.href = "…", location.replace("…"). */
const GOES_TO = /\blocation(?:\s*\.\s*href)?\s*=(?!=)\s*(["'])([^"'\\\n]{0,500})\1|\blocation\s*\.\s*(?:replace|assign)\s*\(\s*(["'])([^"'\\\n]{0,500})\3/g;
/** More inline script than a check's stub carries (a testcookie stub with its AES inline is 10 KB): past it, an app's code or state. */
const STUB_SCRIPT_BYTES = 20_000;

/**
 * A page that shows nothing (or only that it redirects, ONLY_WAIT) whose inline script sets a
 * cookie and sends the browser back to the page: `document.cookie = …; location.reload()`, a
 * testcookie-style `location.href = "/same?i=1"` under a noscript "requires Javascript",
 * `location.replace(location.pathname + "?vc=" + t)`. The check lets a browser in once its cookie
 * is set. `anywhere`: any address written out will do (an error page's own address is not given).
 */
function sendsRound(p: Page, url: string, anywhere: boolean): boolean {
  if (!ONLY_WAIT.test(p.visible) || SHOWS.test(p.body) || p.scriptBytes > STUB_SCRIPT_BYTES) return false;
  for (const m of p.html.slice(0, lastEnd(p.html, '</script')).matchAll(INLINE_SCRIPTS)) {
    const script = m[1] ?? '';
    if (!SETS_COOKIE.test(script)) continue;
    if (RELOADS.test(script)) return true;
    for (const g of script.matchAll(GOES_TO)) if (anywhere || namesItself(g[2] ?? g[4] ?? '', url)) return true;
  }
  return false;
}

/** A noscript that says the visitor is let in only with JavaScript, or says a check's words. */
function checkInNoscript(p: Page): boolean {
  const words = said(p.noscript).toLowerCase();
  return NOSCRIPT_GATE.test(words) || CHALLENGE_PHRASES.test(words);
}

/** Whether `target`, read from the page at `url`, is that page: the same origin and path, its query what it may be. */
function namesItself(target: string, url: string): boolean {
  if (!URL.canParse(url) || !URL.canParse(target, url)) return false;
  const here = new URL(url);
  const there = new URL(target, url);
  return there.origin === here.origin && there.pathname === here.pathname;
}

/** What a page may not show and be nothing but its refresh: a picture, a player or a frame refreshed in place is the page (a webcam's). */
const SHOWS = /<(?:img|picture|video|audio|iframe|frame|embed|object|canvas|a|form|button|input)\b/i;
/** All a check's page may say while it sends the visitor round: that it does. */
const ONLY_WAIT = /^\W*(?:(?:you are being |now )?redirect(?:ing|ed)|please wait|loading|one moment)?\W*$/i;

/**
 * A page that shows nothing and sends the reader at once (MAX_REFRESH_SECONDS) back to its own
 * address by a <meta http-equiv=refresh>, a token in the query or not: a check that lets a
 * visitor in once its cookie is set, and sends one it does not know back round. The fetcher
 * follows a refresh to another address (the same path with "?_tk=…"), got the same stub, whose
 * refresh then named the page itself, and the empty page came back ok (thin, nothing in it).
 * Not a page with anything to see but a line that it redirects (a live page's "Live scores."
 * that reloads itself is that page), a link or a form (SHOWS). Its address is needed (an error
 * page's is not given): the same origin and path.
 */
function refreshesItself(p: Page, url: string): boolean {
  if (!ONLY_WAIT.test(p.visible) || SHOWS.test(p.body)) return false;
  const content = metaRefresh(p.html);
  const r = content === undefined ? undefined : refreshValue(content);
  return !!r && r.seconds <= MAX_REFRESH_SECONDS && namesItself(r.url, url);
}

// ---- login ----------------------------------------------------------------------------

/** A sign-in page's name, in the languages the corpora and the big sites use. */
const LOGIN_NAME =
  /^(?:sign[ -]?in|log[ -]?in|login|signin|sign on|single sign-on|authenticat(?:e|ion) required|anmelden|einloggen|iniciar sesi[oó]n|inicia sesi[oó]n|connexion|se connecter|accedi|entrar|inloggen|aanmelden|zaloguj|giri[sş] yap|oturum a[cç]|войти|вход|увійти|вхід|تسجيل الدخول|ログイン|登录|登入|로그인)(?=$|[\s|:–—\-·•)!.,])/i;
const PASSWORD_FIELD = /<input\b[^<>]*\btype\s*=\s*["']?password/i;
const LOGIN_FORM = /<form\b[^<>]*\baction\s*=\s*["'][^"']*(?:login|signin|sign-in|sign_in|session|auth|sso|oauth|identifier)[^"']*["']/i;
/** A sign-in form that sends the visitor back to what they asked for once signed in: the wall itself. */
const RETURNING_LOGIN_FORM =
  /<form\b[^<>]*\baction\s*=\s*["'][^"']*(?:login|logon|signin|sign-in|sign_in|auth)[^"']*[?&](?:returnurl|return_?to|redirect(?:_?ur[il])?|next|continue|came_?from|goto)=/i;
/** A sign-in form's action that carries where to go back to once signed in: its address, and that place. */
const RETURNING_ACTION =
  /<form\b[^<>]*\baction\s*=\s*["']([^"']*(?:login|logon|signin|sign-in|sign_in|auth)[^"'?]*\?(?:[^"']*&(?:amp;)?)?(?:returnurl|return_?to|redirect(?:_?ur[il])?|next|continue|came_?from|goto)=([^"'&]*)[^"']*)["']/gi;

/**
 * Whether the page is a sign-in form's own page that sends the visitor back elsewhere: the form
 * posts to this very page ('./Login.aspx?ReturnUrl=%2fPages%2fHome.aspx' on /Login.aspx), and
 * what it returns to is another page, the one that sent the visitor here to sign in. A site's
 * header box posts to its sign-in page and returns to the page it sits on: a news brief's
 * 'Login.aspx?ReturnUrl=' on the brief's own address.
 */
function returnsElsewhere(html: string, url: string): boolean {
  let page: URL;
  try {
    page = new URL(url);
  } catch {
    return false;
  }
  const here = page.pathname.toLowerCase();
  for (const m of html.matchAll(RETURNING_ACTION)) {
    try {
      const action = new URL(decodeEntities(m[1]!), page);
      const back = new URL(decodeURIComponent(decodeEntities(m[2]!)), page);
      if (action.origin === page.origin && action.pathname.toLowerCase() === here && back.pathname.toLowerCase() !== here) return true;
    } catch {
      // An address that does not parse says nothing.
    }
  }
  return false;
}

/** A link to the site's sign-in or to a single sign-on: where a sign-in page has no form of its own. */
const SSO_LINK = /href="[^"]*\/(?:sso|oauth|saml|login|signin)\b/i;
/** A link that starts a single sign-on only: every site's header links to its /login. */
const SINGLE_SIGN_ON = /href="[^"]*\/(?:sso|saml|oauth2?)\b/i;
/**
 * The most words a sign-in page's headline has: the corpora's are 1 to 4 ("Sign in", "Sign in to
 * Arm"); an article's headline that starts with the words goes on ("Sign in without a password:
 * how passkeys work", 8).
 */
const LOGIN_HEADLINE_WORDS = 5;
const IDENTIFIER_FIELD = /<input\b[^<>]*\b(?:type\s*=\s*["']?email|name\s*=\s*["']?(?:username|login|email|identifier|user)\b|autocomplete\s*=\s*["']?(?:username|email))/i;

/** A title segment ("Sign in - Accounts", "Shop | Login") that is the sign-in page's name. */
function titledLogin(title: string): boolean {
  return titleSegments(title).some((seg) => LOGIN_NAME.test(seg));
}

/** A title's parts: "Sign in - Accounts", "Shop | Login", "429 · Too Many Requests". */
const titleSegments = (title: string): string[] => title.split(/\s[|\-–—:·•]\s|\s?[|·•]\s?/).map((seg) => seg.trim());

/**
 * A page that says the content needs an account: "you must sign in to view this", in the
 * languages the corpora have. Read only on tiny pages: a real post's "log in to comment"
 * sits under a long text.
 */
const SIGN_IN_TO_ACCESS =
  /\b(?:(?:you (?:must|need to|have to)|please) (?:sign|log) ?in(?: first)? to (?:access|view|see|continue|read|open|download)|(?:sign|log) ?in to (?:access|view|see) this|login required|(?:debes|necesitas|tienes que) iniciar sesi[oó]n para (?:acceder|ver|continuar)|inicia sesi[oó]n para (?:acceder|ver|continuar)|connectez-vous pour (?:acc[eé]der|continuer|voir)|vous devez vous connecter|melden sie sich an, um|anmelden, um (?:fortzufahren|diese)|fa[cç]a login para (?:continuar|acessar|ver))|необходимо (?:войти|авторизоваться)|войдите,? чтобы|потрібно увійти|请先登录|請先登入|登录后(?:查看|才能|可以)|登入後(?:查看|才能|即可)|ログインしてください|ログインが必要|يجب (?:عليك )?تسجيل الدخول|로그인이 필요/gi;

/**
 * What a page asks a sign-in for when it is not the page: a part of it ("You must log in to
 * download attachments" under a forum post, "Connectez-vous pour voir les pièces jointes").
 */
const PAGE_PARTS =
  /^\s*(?:(?:the|this|these|all|any|our|les|la|le|des|die|den|los|las|el|i|gli|os|as)\s+)?(?:attachments?|attached files?|files?|images?|pictures?|photos?|links?|comments?|replies|reply|signatures?|full[- ]size|downloads?|pièces jointes|fichiers|liens|commentaires|anhänge|dateien|bilder|kommentare|adjuntos|archivos|imágenes|enlaces|comentarios|allegati|commenti|anexos|arquivos|imagens|comentários|bijlagen|reacties)\b/i;

/** Whether the text asks to sign in to see the page: SIGN_IN_TO_ACCESS, not about a part of it. */
function asksToSignIn(text: string): boolean {
  const re = SIGN_IN_TO_ACCESS;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) if (!PAGE_PARTS.test(text.slice(re.lastIndex, re.lastIndex + 40))) return true;
  return false;
}

function login(p: Page, short: boolean, prose: boolean): string | undefined {
  // A sign-in box beside an article, or a teaser above a sign-in form: the article came back.
  if (!short || prose) return undefined;
  if (p.visible.length < 1200 && asksToSignIn(p.visible)) return 'login-asks';
  const password = PASSWORD_FIELD.test(p.html) || LOGIN_FORM.test(p.html);
  // Not under a headline of the page's own: a news brief's h1 over the site's sign-in box (552
  // characters of article, a form to Login.aspx?ReturnUrl=) is the brief; the wall has none.
  // A blog's headline is its title too, which ownHeadings reads as a logo; a site's name in an
  // h1 is a few words (the corpora's are 1 to 3), a headline more.
  const brand = titleSegments(p.title).slice(1);
  const isHeadline = (h: string): boolean => !LOGIN_NAME.test(h) && !brand.includes(h) && (h !== p.title || h.split(' ').length > 3);
  const headline = p.h1s.some(isHeadline);
  if (PASSWORD_FIELD.test(p.html) && RETURNING_LOGIN_FORM.test(p.html) && !headline) return 'login-form-returns';
  if (titledLogin(p.title) && (password || IDENTIFIER_FIELD.test(p.html))) return 'login-title-form';
  // A sign-in heading under the page's headline and its words is the site's box at the page's
  // foot, as one below them is beside the page (pageGoesOn): two short briefs (552 and 818
  // characters) with a sign-in page's "Sign in" h1 and form put before their </body> were walls.
  const headed = p.ownHeadings.some((h, i) => {
    const at = p.ownHeadingsAt[i]!;
    return LOGIN_NAME.test(h) && !inDialog(p.body, at) && !pageGoesOn(p, at) && !h1OverProse(p, 0, at, isHeadline);
  });
  if (headed && password) return 'login-heading-form';
  // The form arrives by script: title and heading both name the sign-in, and the page
  // offers single sign-on or says little else.
  if (headed && titledLogin(p.title) && (p.visible.length < 1200 || SSO_LINK.test(p.html))) return 'login-title-heading';
  // The whole form is built by script: the title names the sign-in, and the page is a shell.
  if (titledLogin(p.title) && p.visible.length < 80 && /<script\b/i.test(p.html)) return 'login-title-shell';
  return undefined;
}

/** An element that opens over the page: a <dialog>, an ARIA dialog, or one its classes or id call a modal. */
const DIALOG_START = /^<dialog\b|\brole\s*=\s*["']?(?:alert)?dialog\b|\baria-modal\s*=\s*["']?true\b|\b(?:class|id)\s*=\s*["'][^"']*modal/i;

/**
 * Whether `at` in `body` lies inside an element that opens over the page (DIALOG_START): a
 * login modal's "<h1>Log in</h1>" over its form, put before the page's own heading, is a box
 * beside the page; 218 of 452 real ok pages (whole or without their <p>s, under a blank or a
 * site-name title) were judged sign-in walls with one. A sign-in page's own form is never in
 * one in the corpora. One pass over the tags before `at`, counting the dialogs open.
 */
function inDialog(body: string, at: number): boolean {
  return inside(body, at, DIALOG_START);
}

/** Whether `at` in `body` lies inside an element whose start tag `start` matches. */
function inside(body: string, at: number, start: RegExp): boolean {
  if (at < 0) return false;
  const open: boolean[] = [];
  const names: string[] = [];
  const opened = new Map<string, number>();
  let dialogs = 0;
  for (const t of body.slice(0, at).matchAll(/<(\/?)([a-z][\w-]*)\b[^<>]*>/gi)) {
    const name = t[2]!.toLowerCase();
    if (t[1]) {
      if (!opened.get(name)) continue;
      const from = names.lastIndexOf(name);
      for (const n of names.splice(from)) opened.set(n, opened.get(n)! - 1);
      for (const d of open.splice(from)) if (d) dialogs--;
    } else if (!VOID_ELEMENTS.has(name) && !t[0].endsWith('/>')) {
      const d = start.test(t[0]);
      names.push(name);
      open.push(d);
      opened.set(name, (opened.get(name) ?? 0) + 1);
      if (d) dialogs++;
    }
  }
  return dialogs > 0;
}

/**
 * A sentence of prose: 60 characters or more (a caption, a date line or an address is shorter)
 * with 5 or more words in lower case, as a language's small words are written ("This domain is
 * established to be used for illustrative examples in documents.": 9). A template footer's
 * address breaks into long "sentences" at its abbreviations ("… NW Suite 1300B Washington, DC
 * 20036 Florida 801 Third Street South St.", none in lower case). In the scripts without
 * spaces, a run of their letters (UNSPACED_PROSE).
 */
const isProse = (s: string): boolean => s.trim().length >= 60 && ((s.match(/(?:^|\s)\p{Ll}/gu)?.length ?? 0) >= 5 || UNSPACED_PROSE.test(s));
/** A sentence: its words up to a full stop, a question or an exclamation mark. */
const SENTENCES = /[^.!?。！？]+[.!?。！？]+["”’)]?/gu;

/**
 * Whether the page goes on below a sign-in heading at `at`: a later h1 (a link or the site's
 * name too) that names no sign-in, over a sentence of prose (isProse) in the page's own words
 * before the next heading. A sign-in box put before an article's headline or a blog's posts is
 * beside the page: 224 of 460 real ok pages (whole or without their <p>s, under a blank or a
 * site-name title) with a plain "<h1>Log in</h1>" and form after <body> were judged sign-in
 * walls, 150 now (16 of the 230 whole pages, which have no later h1 over prose). A sign-in
 * page's template heads its footer with h1s over addresses and links ('Offices', 'Stay
 * Connected'). Not an h2 or h3: a sign-in page says why to join or what is new under them (a
 * template's h3 "Sign up for e-mail newsletters" over a sentence that asks for the address).
 */
const pageGoesOn = (p: Page, at: number): boolean => h1OverProse(p, at + 1, p.body.length, (h) => !LOGIN_NAME.test(h));

/**
 * Whether an h1 that starts from `from` to before `to` in the body, and whose text `names`
 * accepts, stands over a sentence of prose (isProse) in the page's own words before the next
 * heading.
 */
function h1OverProse(p: Page, from: number, to: number, names: (h: string) => boolean): boolean {
  const h1s = /<h1\b/gi;
  const heads = /<h[1-3]\b/gi;
  h1s.lastIndex = from;
  for (let m = h1s.exec(p.body); m && m.index < to; m = h1s.exec(p.body)) {
    const open = p.body.indexOf('>', m.index);
    const close = open < 0 ? undefined : closingTag(p.body, 'h1', open + 1);
    // No end after this start: none after a later one either.
    if (!close) return false;
    heads.lastIndex = close.end;
    const next = heads.exec(p.body)?.index ?? p.body.length;
    if (names(squash(p.body.slice(open + 1, close.start))) && (squash(unlinked(p.body.slice(close.end, next))).match(SENTENCES) ?? []).some(isProse)) return true;
    h1s.lastIndex = Math.max(close.end, next);
  }
  return false;
}

/**
 * Where a paragraph, label or legend whose words start with a sign-in's name ("Sign in to
 * Acme") stands over a password field: the field within 1,500 characters of markup after it
 * (the corpus's sign-in page has 400 between them); -1 where none does. Not a heading: a
 * sidebar's "Log in" widget is headed so.
 */
function signInAt(p: Page): number {
  for (const m of p.body.matchAll(/<(p|label|legend)\b[^<>]*>([\s\S]{0,400}?)<\/\1\s*>/gi)) {
    const end = m.index + m[0].length;
    if (LOGIN_NAME.test(squash(unlinked(m[2] ?? ''))) && PASSWORD_FIELD.test(p.body.slice(end, end + 1500)) && !inDialog(p.body, m.index)) return m.index;
  }
  return -1;
}

/** A heading that names a sign-in: its first words ("Sign in with your Acme Account"), or its last after a word or two ("Secure Login", "Member Login"). */
const SIGN_IN_HEADING = (h: string): boolean => LOGIN_NAME.test(h) || /^(?:\S+\s+){1,2}(?:log[ -]?in|login|sign[ -]?in|sign on)$/i.test(h);

/**
 * A slogan or a welcome as the page's headline ("One account. All of Google.", "Welcome to
 * 365 online") over a sub-heading that names the sign-in and its form: the page's first own
 * h1, then a heading naming a sign-in with few words of the page's own between them
 * (HEADLINE_GAP), a password field below it or a form that posts to a sign-in, and not one
 * sentence of prose (isProse) of the page's own below it: a real page's headline over a
 * sign-in box has its article, or its opening, under them.
 * Under a blank or a site-name title these two stand-ins were 20 of the 35 sign-in pages
 * read as ok (measure: 10 templates × 7 stand-ins).
 */
function signInUnderHeadline(p: Page, password: boolean): boolean {
  if (p.ownH1At < 0 || inDialog(p.body, p.ownH1At)) return false;
  const open = p.body.indexOf('>', p.ownH1At);
  const close = open < 0 ? undefined : closingTag(p.body, 'h1', open + 1);
  if (!close) return false;
  const sub = /<h([2-6])\b[^<>]*>([\s\S]*?)<\/h\1\s*>/gi;
  sub.lastIndex = close.end;
  const m = sub.exec(p.body);
  if (!m || squash(unlinked(p.body.slice(close.end, m.index))).length > HEADLINE_GAP || !SIGN_IN_HEADING(squash(unlinked(m[2] ?? '')))) return false;
  const below = p.body.slice(m.index, m.index + SIGN_IN_FORM_REACH);
  if (!PASSWORD_FIELD.test(below) && !(!password && LOGIN_FORM.test(p.html))) return false;
  const heads = /<h[1-6]\b/gi;
  heads.lastIndex = sub.lastIndex;
  const next = heads.exec(p.body)?.index ?? p.body.length;
  return !(squash(unlinked(p.body.slice(sub.lastIndex, next))).match(SENTENCES) ?? []).some(isProse) && !pageGoesOn(p, p.ownH1At);
}
/** Own characters between the headline and the sign-in's heading: a strapline at most (the two stand-ins have 0). */
const HEADLINE_GAP = 80;
/** Markup from the sign-in's heading to its password field: the corpus's Google page has 1,900 (its form's hidden fields). */
const SIGN_IN_FORM_REACH = 3000;

/**
 * A sign-in page inside the site's template, its title blank or only the site's name (`bare`),
 * or the article's headline over the stand-in's own h1: read only where the words outside the
 * links are few (bareFew, headedFew) and none of them is prose. What the stand-in says decides:
 * - under a bare title, that the content needs an account ("Debes iniciar sesión para acceder a
 *   este contenido"), in the page's own words;
 * - its headline, the page's first h1 of its own, is a sign-in's name ("Sign in", "Sign in to
 *   Arm", at most LOGIN_HEADLINE_WORDS) over a password field, a sign-in form or a single
 *   sign-on link. The first h1: a template's footer may head its columns with h1s ("Offices",
 *   "Stay Connected");
 * - under a bare title, a paragraph that names the sign-in ('Sign in to Acme') over a login
 *   and password form, with no headline of the page's own above it: a home page's sidebar box
 *   sits under the site's news.
 */
function bareLogin(p: Page, own: () => string, bare: boolean, url: string): string | undefined {
  if (bare && asksToSignIn(own())) return 'login-asks';
  const password = PASSWORD_FIELD.test(p.html);
  if (bare && password && returnsElsewhere(p.body, url)) return 'login-form-returns-elsewhere';
  const headline = p.ownH1s[0];
  const named = headline !== undefined && LOGIN_NAME.test(headline) && headline.split(' ').length <= LOGIN_HEADLINE_WORDS && !inDialog(p.body, p.ownH1At) && !pageGoesOn(p, p.ownH1At);
  if (named && (password || LOGIN_FORM.test(p.html) || SINGLE_SIGN_ON.test(p.html))) return 'login-headline-form';
  if (bare && signInUnderHeadline(p, password)) return 'login-subheading-form';
  if (!bare || !password || !IDENTIFIER_FIELD.test(p.html)) return undefined;
  const at = signInAt(p);
  return at >= 0 && !(p.ownH1At >= 0 && p.ownH1At < at) ? 'login-bare-title-form' : undefined;
}

/**
 * The site's chrome around a page: its navigation, sidebar and footer, by element or ARIA role.
 * Not <header>: 1 of the 10 templates measured holds its article's headline in one.
 */
const CHROME_START = /^<(?:nav|aside|footer)\b|\brole\s*=\s*["']?(?:banner|navigation|complementary|contentinfo)\b/i;

/**
 * A sign-in form as the page's main content, whatever the title (a template may keep the
 * article's headline there): read only where the words outside the links are few and none of
 * them is an article's prose. A password field outside the site's chrome (CHROME_START) and any
 * dialog, with no h1 above it but a sign-in's name (SIGN_IN_HEADING) or a slogan over a
 * sign-in's heading (signInUnderHeadline), and the page not going on under a later h1
 * (pageGoesOn): an article keeps its headline h1 above its site's sign-in box, and a sign-in box
 * before a headline or a blog's posts has the page's own prose under them. h1s after the field are the template's
 * (a promotion, a sidebar's list), not the page's name. Login walls put where the headline of
 * 10 article-benchmark pages was (bench walls-in-templates), under the headline as title: 17 of
 * 70 caught before, 30 with this; the 91 articles under three titles, and with each wall before
 * or after them (1,274), judged as before.
 */
function signInAsPage(p: Page, own: () => string): string | undefined {
  const at = signInFieldAt(p.body);
  if (at < 0 || inDialog(p.body, at) || inside(p.body, at, CHROME_START)) return undefined;
  // A <header> is the site's (a shop's account box over its product's h1) where an h1 follows.
  const h1s = (html: string): string[] => [...html.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/gi)].map((m) => squash(unlinked(m[1] ?? ''))).filter(Boolean);
  if (inside(p.body, at, /^<header\b/i) && h1s(p.body.slice(at)).length) return undefined;
  // Where the page's own words were before it, the form is beside them: a sidebar's box under a
  // home page's list (the outcome corpus's URL shortener has most of its own words above it).
  if (squash(unlinked(p.body.slice(0, p.body.lastIndexOf('<form', at)))).length > own().length / 2) return undefined;
  const named = (h: string): boolean => SIGN_IN_HEADING(h) && h.split(' ').length <= LOGIN_HEADLINE_WORDS;
  if (!h1s(p.body.slice(0, at)).every(named) && !signInUnderHeadline(p, true)) return undefined;
  return pageGoesOn(p, at) ? undefined : 'login-form-as-page';
}

/**
 * Where the first password field of a sign-in form is: one whose form asks for a name or an
 * address too (IDENTIFIER_FIELD) or posts to a sign-in (LOGIN_FORM). A URL shortener's form
 * that lets a link be locked has a password field and no name. -1 where there is none.
 */
function signInFieldAt(body: string): number {
  const fields = new RegExp(PASSWORD_FIELD.source, 'gi');
  for (let m = fields.exec(body); m; m = fields.exec(body)) {
    const start = body.lastIndexOf('<form', m.index);
    if (start < 0 || body.lastIndexOf('</form', m.index) > start) continue;
    const end = body.indexOf('</form', m.index);
    const form = body.slice(start, end < 0 ? body.length : end);
    if (IDENTIFIER_FIELD.test(form) || LOGIN_FORM.test(form)) return m.index;
  }
  return -1;
}

// ---- consent --------------------------------------------------------------------------

/**
 * Words in Cyrillic, Arabic and the scripts without spaces sit outside the \b…\b groups: \b
 * sees only [A-Za-z0-9_] as word characters, so "прежде чем продолжить" inside one never matched.
 */
const CONSENT_TITLES =
  /\b(?:before you continue|before you go on|we value your privacy|your privacy choices|privacy settings|cookie (?:consent|settings|preferences)|consent|antes de (?:ir a|continuar)|bevor sie (?:fortfahren|weitergehen)|avant de continuer|avant d'accéder|prima di continuare|voordat je verdergaat|zanim przejdziesz)\b|перш ніж продовжити|прежде чем продолжить/i;
const CONSENT_BODY = /\b(?:cookies?|consent|partners|personal data|privacy|datenschutz|données|privacidad|einwilligung|consentement)\b/gi;
const CONSENT_BUTTONS = /\b(?:accept all|reject all|i agree|agree and (?:continue|proceed)|alle akzeptieren|alle ablehnen|tout accepter|tout refuser|aceptar todo|rechazar todo|accetta tutto|rifiuta tutto|manage (?:options|settings|cookies)|customi[sz]e)\b|принять все|отклонить все|прийняти все|すべて(?:同意|受け入れ)|全部接受|모두 (?:동의|수락)/i;

/**
 * Headings a wall shares with a privacy policy or a settings page ("Your privacy matters",
 * "Paramètres des cookies"): they name a wall only over a button that answers it at once.
 */
const PRIVACY_HEADINGS =
  /\b(?:we (?:respect|care about|value) your privacy|your privacy (?:matters|is important(?: to us)?)|manage (?:your )?(?:cookie|privacy) (?:preferences|settings|choices)|wir respektieren ihre privatsphäre|ihre privatsphäre ist uns wichtig|datenschutz-?einstellungen|cookie-einstellungen|vos choix (?:concernant|en matière de) (?:les )?cookies|gestion des cookies|paramètres (?:des )?cookies|(?:tu|su) privacidad|configuraci[oó]n de (?:las )?cookies|la tua privacy|(?:gestione|impostazioni) (?:dei )?cookie|sua privacidade|(?:configurações|preferências) de cookies|(?:jouw|uw) privacy|cookie-?instellingen)\b|(?:votre|respect de votre) vie privée|(?:cookie|クッキー)\s?(?:の(?:使用|利用|設定)|について|に関する)/i;
const CONSENT_ANSWERS =
  /\b(?:accept all|accept (?:all )?cookies|reject all|i agree|i accept|agree and (?:continue|proceed)|alle akzeptieren|alle ablehnen|akzeptieren und (?:weiter|schließen)|tout accepter|tout refuser|accepter et (?:continuer|fermer)|aceptar (?:todo|todas|y continuar)|rechazar todo|accetta (?:tutto|tutti)|rifiuta tutto|aceitar (?:todos|tudo|e continuar)|rejeitar (?:todos|tudo)|alles accepteren|alles weigeren)\b|принять все|すべて(?:同意|受け入れ)|全部接受|모두 (?:동의|수락)/i;

function consent(p: Page, short: boolean, prose: boolean): string | undefined {
  // An article under a consent overlay came back: the overlay is no wall to a reader of the HTML.
  if (!short || prose) return undefined;
  const names = (re: RegExp): boolean => re.test(said(p.title)) || p.ownHeadings.some((h) => re.test(said(h)));
  const words = p.visible.match(CONSENT_BODY)?.length ?? 0;
  if (names(CONSENT_TITLES) && (words >= 2 || CONSENT_BUTTONS.test(p.visible))) return 'consent-wall';
  if (names(PRIVACY_HEADINGS) && words >= 1 && CONSENT_ANSWERS.test(p.visible)) return 'consent-wall';
  return undefined;
}

// ---- soft 404 -------------------------------------------------------------------------

// "The page you requested was not found.": a not-found page whose heading says something else.
// Japanese writes "cannot be found" in kana as often as in kanji (みつかりません, 見つかりません):
// a not-found page titled in kana, inside its site's template, came back ok.
const NOT_FOUND =
  /(?:page (?:was )?not found|not be found|(?:page|url|document|file) (?:that )?you (?:requested|asked for|are looking for|were looking for) (?:was|is) not found|(?:can[’'ʼ]?t|cannot|can ?not|could ?n[’'ʼ]?t|could not|unable to) (?:find|locate) (?:the|this|that|what|it|your|page)|(?:page|url|file|link|content)(?: you (?:are|were|re) looking for| you requested)?[^.]{0,40}(?:does ?n[’'ʼ]?t|does not|no longer) exists?|no longer (?:available|exists)|nothing (?:was )?found here|(?:this|the) page (?:is (?:missing|gone)|has (?:been )?(?:moved|removed|deleted))|\b404\b[^a-z0-9]{0,4}(?:error|not found|page)|error[^a-z0-9]{0,4}\b404\b|^\s*(?:4 ?0 ?4)\s*(?:[|\-–—:]|$)|seite (?:wurde )?nicht gefunden|página no encontrada|no se (?:ha )?encontr|page introuvable|pagina non trovata|pagina niet gevonden|strona nie (?:została )?znaleziona|(?:erreur|fehler|errore|erro|ошибка|помилка|hata|b[łl][ąa]d|fout|chyba|hiba)[^a-z0-9]{0,4}404\b|\b404[^a-z0-9]{0,4}(?:エラー|错误|錯誤|오류)|seite existiert nicht|page n[’'ʼ]existe pas|p[aá]gina no existe|pagina non esiste|p[aá]gina n[aã]o existe|pagina bestaat niet|strona nie istnieje|sayfa mevcut de[gğ]il|страница не существует|сторінка не існує|p[aá]gina n[aã]o (?:foi )?encontrada|sayfa bulunamad[ıi]|halaman tidak ditemukan|kh[oô]ng t[iì]m th[aấ]y trang|страница не найдена|сторінк[уа] не знайдено|الصفحة (?:المطلوبة )?غير موجودة|لم يتم العثور على الصفحة|पृष्ठ नहीं मिला|ページ[がは](?:見|み)つかりません|ページ(?:が|は)存在しません|页面不存在|頁面不存在|页面未找到|頁面未找到|找不到(?:您要的|此|该|該)?(?:页面|頁面|網頁|网页)|페이지를 찾을 수 없습니다)/i;
/**
 * More ways a missing page says so: that it is not (or no longer) available, was removed, or is
 * not there, with the page or its content as the subject ("Sorry, this page isn't available",
 * "Die angeforderte Seite ist leider nicht verfügbar", "La page que vous recherchez est
 * introuvable"). Only with the page (or the one asked for) as the subject: "the online catalogue
 * page is not available on Friday" in a library's notice, or a discontinued product's "no
 * longer available in stores", is no missing page.
 */
const GONE =
  /(?:this|the|that) (?:page|content|link|post|article|video)(?: you [^.]{0,30})? (?:(?:is ?n[’'ʼ]?t|is not|is no longer) available|(?:has|have) been (?:removed|deleted|taken down)|(?:does ?n[’'ʼ]?t|does not) (?:seem to |appear to )?exist)|there[’'ʼ]?s nothing (?:here|to see here)|(?:die|diese) (?:(?:angeforderte|gesuchte|aufgerufene|gewünschte) )?seite (?:ist |wurde |konnte )?(?:leider )?nicht (?:mehr )?(?:gefunden|verfügbar|vorhanden)|(?:angeforderte|gesuchte|aufgerufene|gewünschte) seite existiert nicht|page non trouvée|(?:la|cette) page (?:que vous (?:recherchez|demandez|cherchez) |demandée )?(?:est introuvable|n[’'ʼ]existe (?:pas|plus)|n[’'ʼ]est plus disponible)|p[aá]gina (?:que (?:buscas|busca|has solicitado|solicitaste) |solicitada )?(?:ya )?no (?:existe|est[aá] disponible)|pagina (?:che (?:stai cercando|cerchi|hai richiesto) |richiesta )?non (?:esiste|è (?:più )?disponibile)|p[aá]gina (?:que (?:voc[eê] )?(?:procura|est[aá] procurando|solicitou) |solicitada )?n[aã]o (?:existe|est[aá] dispon[ií]vel)|n[aã]o encontramos (?:a|esta) p[aá]gina|pagina (?:die (?:je|u) zoekt )?(?:bestaat niet|is niet (?:meer )?beschikbaar)|no (?:hemos podido|pudimos) encontrar (?:la|esta) p[aá]gina/i;
const saysNotFound = (s: string): boolean => NOT_FOUND.test(s) || GONE.test(s);

/**
 * What a missing page's sentence is about: the page, its address, link or file, what was asked
 * for, or a 404. 'file' alone: a link's 'if files could not be found' speaks of any.
 */
const PAGE_WORD = /\b(?:pages?|url|link|file|document|404)\b|\bwhat you(?: were| are|['’]re)? (?:looking for|asked for|requested|searched for)|seite|p[aá]gina|страниц|сторінк|sayfa|halaman|trang|الصفحة|पृष्ठ|ページ|页面|頁面|網頁|网页|페이지/i;
const NOT_FOUND_ALL = new RegExp(NOT_FOUND.source, 'gi');
/** How far before or after its not-found words a sentence names the page: 'The page you are looking for … could not be found' (45). */
const SUBJECT_CHARS = 60;

/**
 * Whether these first sentences say a page is missing, naming the page (or its address, or a
 * 404) in the not-found words or beside them, in the same sentence: an article's 'content
 * that was, at one time, published and is no longer available', or a link's 'returns images of
 * kittens if files could not be found', put first under the headline of a page with no h1 of
 * its own, read as a missing page (215 of the article benchmark's 273 pages, their <p>s taken
 * out, with one of three such sentences where the h1 was).
 */
function notFoundSentence(text: string): boolean {
  // GONE's words have the page or its content as their subject already.
  if (GONE.test(text)) return true;
  NOT_FOUND_ALL.lastIndex = 0;
  for (let m = NOT_FOUND_ALL.exec(text); m; m = NOT_FOUND_ALL.exec(text)) {
    const end = m.index + m[0].length;
    const before = text.slice(Math.max(0, m.index - SUBJECT_CHARS), m.index);
    const sentence = before.slice(before.search(/[.!?。！？]\s[^.!?。！？]*$/) + 1);
    // After them too, to the sentence's end: "Couldn't find this page".
    const after = text.slice(end, end + SUBJECT_CHARS).split(/[.!?。！？]/)[0]!;
    if (PAGE_WORD.test(sentence + m[0] + after)) return true;
    if (m[0].length === 0) NOT_FOUND_ALL.lastIndex++;
  }
  return false;
}

/**
 * A plain-text answer that is only a "not found" message ("404 page not found", Go's own;
 * "Not Found"), served as a success. Short bodies only: a text file that mentions a missing
 * page in passing is a text file.
 */
export function isNotFoundText(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && t.length <= 200 && (saysNotFound(t) || /^(?:404\s*[:\-–—]?\s*)?(?:file |page |resource )?not found[.!]?$/i.test(t));
}

/** The query parameters sites put a search's words in. */
const SEARCH_PARAMS = new Set(['q', 'query', 'search', 's', 'keyword', 'keywords', 'term', 'k', 'text', 'searchterm', 'search_query']);

/**
 * A search's answer: the URL asks a search (?q=…) and the page's search box holds those
 * words. "We couldn't find what you were looking for" there is the answer to the search the
 * user asked for, not a missing page (whose hint would send them to an archived copy).
 */
function searchAnswer(html: string, url: string): boolean {
  let words: string[];
  try {
    words = [...new URL(url).searchParams].filter(([k, v]) => SEARCH_PARAMS.has(k.toLowerCase()) && v.trim()).map(([, v]) => v.trim().toLowerCase());
  } catch {
    return false;
  }
  if (!words.length) return false;
  for (const m of html.matchAll(/<input\b[^<>]*?\bvalue\s*=\s*(?:"([^"<>]*)"|'([^'<>]*)'|([^\s"'<>]+))/gi)) {
    if (words.includes(decodeEntities(m[1] ?? m[2] ?? m[3] ?? '').trim().toLowerCase())) return true;
  }
  return false;
}

/** A page that names itself a product (Open Graph's og:type): one called "Not Found" or "Error 404" is for sale. */
const PRODUCT_PAGE = /<meta\b(?=[^<>]*\bproperty\s*=\s*["']?og:type\b)(?=[^<>]*\bcontent\s*=\s*["']?product\b)[^<>]*>/i;

/**
 * A parked domain: the registrar's or a domain seller's placeholder where a site was (or was
 * never built), saying so with the domain as its subject ("This domain may be for sale", "…is
 * parked free, courtesy of…", "It is currently being parked by the owner", "Buy this domain"), or
 * the registrar's notice of a name left to expire ("This domain expired on 2024-03-01"). Not a
 * help page's "If this domain has expired, renew it".
 * Its home page is no missing page to the random-path probe, which does not ask for "/", and
 * came back ok, thin or with the seller's links as its text.
 */
const PARKED =
  /\b(?:(?<!\b(?:if|whether|when|once) )this domain(?: name)? (?:(?:is|may be|might be|could be) (?:currently |now )?(?:for sale|parked|listed for sale|available for (?:sale|purchase))|has expired|expired on|has been registered (?:with|at|via|through) [\w-]+\.[a-z]{2,})|(?:buy|purchase|make an offer (?:on|for)|inquire about(?: buying| purchasing)?) this domain|is parked free,? courtesy of|(?:currently )?being parked by (?:the|its) owner|(?:diese|die) domain (?:steht zum verkauf|(?:ist|wurde) geparkt|kaufen)|ce (?:nom de )?domaine (?:est (?:à vendre|parqué)|peut être à vendre)|este dominio (?:está (?:a la venta|aparcado|estacionado)|puede estar a la venta))\b/i;

/**
 * The same said of the page's own host, where the domain's name stands in for "this domain":
 * "The domain shop.example is for sale", "shop.example may be for sale". Only its own: a news
 * brief's "the domain x.example is for sale for $2m" is about another.
 */
function parkedHere(text: string, url: string): boolean {
  const host = siteHost(url);
  if (host === undefined || !host.includes('.')) return false;
  const name = literally(host);
  return new RegExp(`(?:^|[^\\w.-])(?:www\\.)?${name} (?:is|may be|might be) (?:(?:currently |now )?(?:for sale|parked)|available for (?:sale|purchase))\\b`, 'i').test(text);
}

function soft404(p: Page, status: number, few: boolean, prose: boolean, url: string, similarity: number | undefined, bareFew = false, own = (): string => squash(unlinked(p.body))): string | undefined {
  // A placeholder says little else (the registrar's, in three languages, 1,500 characters),
  // though its sales pitch reads as prose: three paragraphs on "hosting from €4 a month". A
  // page that names itself an article is one about domains. Before the random-path twin,
  // which a parked host answers every path with too: "the domain is parked" says more.
  const says = said(`${p.title} | ${p.visible}`);
  if (PARKED.test(says) || parkedHere(says, url)) {
    if (p.visible.length < SHORT_CHARS && !ARTICLE_MARKUP.test(p.html)) return 'parked-domain';
    // In a site's template the links make the page long (6,000 characters of them in the
    // article benchmark's), and the template may keep its article markup: the parked words in
    // a heading (the registrar's 'This domain name has been registered with …'), or in the
    // words outside the links of a page not marked an article, decide where those words are
    // few. A real article on domain sales has several thousand of its own; a short one marked
    // as an article says them in its title too, as its headline is its title ('Why this domain
    // is for sale'), where a template keeps its own title over the stand-in.
    if (own().length < SHORT_CHARS) {
      const marked = ARTICLE_MARKUP.test(p.html);
      const headed = said(p.headings);
      if ((PARKED.test(headed) || parkedHere(headed, url)) && !(marked && PARKED.test(said(p.title)))) return 'parked-domain';
      if (!marked && (PARKED.test(said(own())) || parkedHere(said(own()), url))) return 'parked-domain';
    }
  }
  // The same answer for a path that cannot exist: whatever this page says, it is the
  // host's catch-all (0.9: the two differ only by the echoed path and a token or two).
  if (similarity !== undefined && similarity >= 0.9 && status >= 200 && status < 300) return 'random-path-twin';
  if ((p.visible.length > TEMPLATE_CHARS && !few) || prose || PRODUCT_PAGE.test(p.html) || searchAnswer(p.html, url)) return undefined;
  const title = said(p.title);
  if (saysNotFound(title) || /^\s*404\b/.test(title)) return 'not-found-title';
  if (saysNotFound(said(p.headings))) return 'not-found-heading';
  // No heading says so, but the first sentences do, in a page with little else: little else
  // but links where the title names no page, or no h1 names the page (bareFew).
  if ((p.visible.length < SHORT_CHARS || bareFew) && notFoundSentence(said(squash(unlinked(p.body)).slice(0, 600)))) return 'not-found-text';
  return undefined;
}

// ---- needs JavaScript -----------------------------------------------------------------

const APP_ROOTS =
  /<(?:app-root|ng-app)\b|<div[^<>]+id\s*=\s*["']?(?:root|app|__next|___gatsby|__nuxt|svelte|main-app|application|react-root|mount)["'\s>]|ng-version=|data-reactroot|<flutter-view|flutter_bootstrap|main\.dart\.js|ember-cli|blazor\.(?:web|webassembly|server)\.js|<div[^<>]+id\s*=\s*["']?q-app/i;
const NOSCRIPT_JS =
  /\b(?:enable javascript|javascript (?:is )?(?:required|disabled|must be enabled|not enabled|enabled)|(?:requires?|need) javascript|without javascript|turn on javascript|javascript to run|activate javascript|javascript aktivieren|activer javascript|habilita javascript|active o javascript)\b/i;
/** The data islands of server-side frameworks: where the text sits when the HTML lacks it. */
const DATA_ISLANDS = /<script[^<>]+id\s*=\s*["']?(__NEXT_DATA__|__NUXT_DATA__)["']?[^<>]*>([\s\S]*?)<\/script>|window\.(__NUXT__|__INITIAL_STATE__|__APOLLO_STATE__|__PRELOADED_STATE__)\s*=\s*([\s\S]*?)<\/script>/g;

/** Scripts written without spaces between words: a run of this many of their letters is prose. */
const UNSPACED_PROSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]{8}/u;

/** A JSON string literal's text (its escapes, \u6771 included, read); the literal itself if it is not valid JSON. */
function literal(body: string): string {
  if (!body.includes('\\')) return body;
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body;
  }
}

/**
 * Human-readable text inside a JSON-ish island: string literals that are words, not ids,
 * URLs or markup: at least three spaces between words, or, in Chinese, Japanese, Thai and
 * the other scripts that write no spaces, a run of their letters.
 */
function islandText(island: string): number {
  let n = 0;
  for (const m of island.matchAll(/"((?:[^"\\]|\\.){20,})"/g)) {
    const s = literal(m[1] ?? '');
    if (/^https?:|^\/|<\w/.test(s)) continue;
    if ((s.match(/ /g)?.length ?? 0) >= 3 || UNSPACED_PROSE.test(s)) n += s.length;
  }
  return n;
}

/** A noscript that only recommends JavaScript: the page works without it. */
const RECOMMENDS_JS = /\b(?:for (?:the|a) (?:best|better|full|optimal) (?:experience|experiences|functionality)|works best|some (?:features|parts|content) (?:may|might|will)|to (?:view|see|load|post|read) (?:the )?comments)\b/i;

/** Elements that hold what a page says, as against an app's chrome ("Loading…" in a div). */
const TEXT_BLOCKS = /<(?:p|h[1-6]|li|blockquote|dd|pre)\b[^<>]*>/gi;

/**
 * Whether a page with little text says something of its own: 40 characters or more in its
 * paragraphs, headings and list items (a Chinese, Japanese or Korean character counts twice).
 * The app shells of the corpora have at most a "Loading..." in a div; a short notice, a poem,
 * a product's name and price have it, and no script of theirs makes them an empty shell.
 */
function saysSomething(p: Page): boolean {
  let n = 0;
  TEXT_BLOCKS.lastIndex = 0;
  for (let m = TEXT_BLOCKS.exec(p.body); m; m = TEXT_BLOCKS.exec(p.body)) {
    BLOCK_EDGE.lastIndex = TEXT_BLOCKS.lastIndex;
    const edge = BLOCK_EDGE.exec(p.body);
    const text = squash(p.body.slice(TEXT_BLOCKS.lastIndex, edge ? edge.index : p.body.length));
    n += text.length + (text.match(CJK)?.length ?? 0);
    if (n >= 40) return true;
  }
  return false;
}

/** Blocks that hold a page's running text, as against its headings and labels. */
const PROSE_BLOCKS = /<(?:p|li|blockquote|dd|td)\b[^<>]*>/gi;

/**
 * Whether a paragraph, list item, quote or cell of the page's own (outside its links) is running
 * text: prose (isProse) that ends a sentence. A product's 'Solid walnut base, linen shade, 2 m
 * cloth cable. E27 bulb not included.' is; promo lines ('New arrivals to inspire dream
 * destinations'), a form's 'This field is required.' and its fine print under a newsletter box
 * ('Click here to read … privacy notice, Or contact us') are not.
 */
function saysInSentences(p: Page): boolean {
  PROSE_BLOCKS.lastIndex = 0;
  for (let m = PROSE_BLOCKS.exec(p.body); m; m = PROSE_BLOCKS.exec(p.body)) {
    BLOCK_EDGE.lastIndex = PROSE_BLOCKS.lastIndex;
    const edge = BLOCK_EDGE.exec(p.body);
    const text = squash(unlinked(p.body.slice(PROSE_BLOCKS.lastIndex, edge ? edge.index : p.body.length)));
    if (SENTENCE_END.test(text) && isProse(text)) return true;
  }
  return false;
}

function needsJs(p: Page, rendered: boolean, scriptsFailed: boolean): string | undefined {
  // Nothing would run: a page that says something and has no script is all there is, however
  // little it says (a one-line notice in a <div id="app">, a noscript that only recommends
  // JavaScript). Rendered, it would "stay empty when its scripts ran", which it is not.
  if (p.visible.length > 0 && !/<script\b/i.test(p.html)) return undefined;
  const chars = p.visible.length;
  if (chars < 200) {
    // The page itself says it needs JavaScript.
    if (NOSCRIPT_JS.test(p.visible) && !RECOMMENDS_JS.test(p.visible)) return 'noscript-asks-for-js';
    // A short page that says something is the page, whatever its scripts and its noscript: a
    // notice with the site's two scripts, a blog post whose comments ask for JavaScript. Judged
    // a shell, it was rendered and then failed as one "that stayed empty when its scripts ran".
    // (Its data islands are still read, below.)
    const shell = !saysSomething(p);
    if (shell && NOSCRIPT_JS.test(p.noscript) && !RECOMMENDS_JS.test(p.noscript)) return 'noscript-asks-for-js';
    if (shell && APP_ROOTS.test(p.html)) return 'empty-app-root';
    if (shell && (p.scriptBytes > 2000 || (p.html.match(/<script\b[^<>]*\bsrc=/gi)?.length ?? 0) >= 2)) return 'script-only';
    // Nothing to read but a script (one bundle into a root of any name): the script makes the page.
    if (shell && /^\W*(?:loading\W*)?$/i.test(p.visible) && /<script\b/i.test(p.html) && !/<(?:img|picture|video|audio|iframe|frame|embed|object|canvas)\b/i.test(p.body)) return 'empty-with-script';
  }
  // The islands decide only on a page with little text of its own (below); on any other they are not read.
  // Nor on a rendered page, which is what it shows: a product page's reviews that stay folded in
  // its island kept it "an app shell that stayed empty when its scripts ran", its name and price
  // shown. Unless its scripts failed and it shows no running text: a storefront whose scripts did
  // not load, rendered to 303 characters of 'SHOP NOW' headings and image links over 348 KB of
  // state, came back ok and thin.
  if (chars >= SHORT_CHARS * 2 || (rendered && (!scriptsFailed || saysInSentences(p)))) return undefined;
  let island = 0;
  for (const m of p.html.slice(0, lastEnd(p.html, '</script')).matchAll(DATA_ISLANDS)) island += islandText(m[2] ?? m[4] ?? '');
  // The islands carry several times the page's visible text: it is rendered by the client.
  if (island > 1000 && island > chars * 3 && chars < SHORT_CHARS * 2) return 'text-in-data-island';
  return undefined;
}

// ---- paywall ---------------------------------------------------------------------------

/**
 * schema.org's paywall markup, which search engines ask subscription sites to carry: the
 * article, or a part of it (hasPart), is not free. In JSON-LD or in microdata.
 */
const NOT_FREE_JSON = /["']isAccessibleForFree["']\s*:\s*["']?false\b/i;
const NOT_FREE_META = /<meta\b(?=[^<>]*\bitemprop\s*=\s*["']?isAccessibleForFree\b)(?=[^<>]*\bcontent\s*=\s*["']?false\b)[^<>]*>/i;
/**
 * A paywall's own words, for the sites that leave out the markup: a box under the teaser that
 * asks the reader to subscribe, or sign in, to read on. Not "Already a subscriber?" alone: a
 * metered site's full article carries that in its footer.
 */
const PAYWALL_ASKS =
  /\b(?:subscribe (?:now )?to (?:continue|keep) reading|(?:subscribe|sign in|log in|register) to (?:read|continue reading) (?:the|this) (?:full |whole |rest of the )?(?:article|story)|to (?:continue|keep) reading,? (?:please )?(?:subscribe|sign in|log in)|(?:this|the rest of this) (?:article|story) is (?:only )?(?:for|available to|exclusive to|reserved for) (?:paying )?(?:subscribers|members))\b/i;
const PAYWALL_ASKS_ALL = new RegExp(PAYWALL_ASKS.source, 'gi');
/**
 * A link back into the page (href="#…"), or a button, that lets the reader read on: the
 * "Continue reading" or "No thanks" of a newsletter's prompt. A wall's box has none: its links
 * go to the subscription and the sign-in. A blogging platform's subscribe modal says
 * "Subscribe now to keep reading and get access to the full archive." over such a link, and is
 * shown only on posts free to all; a short one came back "paywalled".
 */
const READ_ON = /<(?:a\b[^<>]*\bhref\s*=\s*["']?#[^<>]*|button\b[^<>]*)>\s*(?:<[^<>]*>\s*)*(?:continue reading|keep reading|read on|no,? thanks|not now|maybe later)\b/i;
/**
 * How far past its ask a box's read-on link may stand: the modal puts its email form between
 * them, 1,468 characters of markup with the hidden fields the plugin's form carries (in
 * test/fixtures/outcomes); twice that. A 2.8 MB page of asks each with a link past them is
 * judged in 0.6 s.
 */
const BOX_CHARS = 3000;

/**
 * Whether the page asks in words, where a reader sees them, to subscribe to read on, with no
 * way on but that. Not in a script: a comment widget's settings carry the modal's words as
 * strings for every post of the platform. The markup read first, as the page is judged
 * without its scripts only where the words are there at all.
 */
function asksToPay(html: string): boolean {
  if (!PAYWALL_ASKS.test(html)) return false;
  const { body } = pageOf(html);
  for (const m of body.matchAll(PAYWALL_ASKS_ALL)) {
    const after = m.index + m[0].length;
    if (!READ_ON.test(body.slice(after, after + BOX_CHARS))) return true;
  }
  return false;
}

/**
 * Whether a page marks its article as for subscribers, or asks in words to subscribe to read
 * on: only then is it asked whether it is a teaser.
 */
export const marksNotFree = (html: string): boolean => NOT_FREE_JSON.test(html) || NOT_FREE_META.test(html) || asksToPay(html);
/** A length in words as structured data gives it, a key of a script's JSON (JSON-LD, a site's state). */
const WORD_COUNT = /["']wordCount["']\s*:\s*["']?(\d{1,7})\b/g;
const NOT_FREE_JSON_ALL = new RegExp(NOT_FREE_JSON.source, 'gi');

/**
 * The length the page's structured data gives its own article, in words; 0 where it gives
 * none, or several without saying which is the article's. A site's state lists other stories
 * with theirs (most read, up next), ahead of the article's JSON-LD or inside it: the first
 * wordCount of the page was another story's, so a whole article under a longer story's count
 * was warned paywalled, and a teaser under a brief's came back as whole. Where the counts
 * differ, the article's is the one of the object marked not free, or of an object around it
 * (the article around the part that is not free, its hasPart). Read in scripts only: a count
 * the page shows as text is a quote.
 */
function declaredWords(html: string): number {
  const scripts = scriptsOf(html).filter((s) => s.search(WORD_COUNT) >= 0);
  const counts = scripts.flatMap((s) => [...s.matchAll(WORD_COUNT)].map((m) => Number(m[1])));
  if (new Set(counts).size <= 1) return counts[0] ?? 0;
  for (const script of scripts) {
    const marks = [...script.matchAll(NOT_FREE_JSON_ALL)].map((m) => m.index);
    if (!marks.length) continue;
    const keys = [...script.matchAll(WORD_COUNT)];
    const { inside, around } = objectsOf(script, [...marks, ...keys.map((m) => m.index)]);
    // Each count by the object that holds it; each object looked at once, however many marks.
    const held = new Map(keys.map((m) => [inside.get(m.index)!, Number(m[1])]));
    const seen = new Set<number>();
    for (const mark of marks) {
      for (let o = inside.get(mark)!; o >= 0 && !seen.has(o); o = around.get(o)!) {
        if (held.has(o)) return held.get(o)!;
        seen.add(o);
      }
    }
  }
  return 0;
}

/** The text of each <script> element of the page, in order (one with no end tag ends the list). */
function scriptsOf(html: string): string[] {
  const out: string[] = [];
  const starts = /<script\b/gi;
  for (let m = starts.exec(html); m; m = starts.exec(html)) {
    const open = html.indexOf('>', m.index);
    const close = open < 0 ? undefined : closingTag(html, 'script', open + 1);
    if (!close) break;
    out.push(html.slice(open + 1, close.start));
    starts.lastIndex = close.end;
  }
  return out;
}

/**
 * Of a script's JSON or JavaScript, in one pass that skips strings: where the innermost object
 * around each of `positions` (each outside any string) opens, and where the object around each
 * object opens; -1 for none.
 */
function objectsOf(text: string, positions: number[]): { inside: Map<number, number>; around: Map<number, number> } {
  const wanted = [...new Set(positions)].sort((x, y) => x - y);
  const inside = new Map<number, number>();
  const around = new Map<number, number>();
  const open: number[] = [];
  let next = 0;
  for (let i = 0; i < text.length && next < wanted.length; i++) {
    // A position the pass stepped over (inside what it read as a string) is placed where it resumed.
    for (; next < wanted.length && wanted[next]! <= i; next++) inside.set(wanted[next]!, open.at(-1) ?? -1);
    const c = text[i];
    if (c === '{') {
      around.set(i, open.at(-1) ?? -1);
      open.push(i);
    } else if (c === '}') open.pop();
    else if (c === '"' || c === "'" || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    }
  }
  for (; next < wanted.length; next++) inside.set(wanted[next]!, -1);
  return { inside, around };
}

/** Words as a site counts them: runs between spaces, and each Chinese, Japanese or Korean character. */
const wordsIn = (text: string): number => text.split(/\s+/).filter(Boolean).length + (text.match(CJK)?.length ?? 0);

/**
 * A page that marks its article as for subscribers, and of whose article (read only when
 * the markup is there) less came back than it claims: under half its declared wordCount,
 * or, with none declared, a short text. Sites that send the whole article to everyone carry
 * the same markup (a metered paywall counts in the browser), so the markup alone is no sign
 * of a teaser.
 */
export function paywallTeaser(html: string, article: () => string): boolean {
  return marksNotFree(html) && isTeaser(html, article());
}

/** Of a page with a wall (teaserWall): whether its article's text is less than it claims. */
export function isTeaser(html: string, article: string): boolean {
  const text = article.replace(/\s+/g, ' ').trim();
  const declared = declaredWords(html);
  return declared > 0 ? wordsIn(text) < declared / 2 : text.length < SHORT_CHARS && !paidPartCame(html);
}

/** Where schema.org's paywall markup names the part that is not free (hasPart's cssSelector): one selector or a list. */
const PAID_PART = /["']cssSelector["']\s*:\s*(\[[^\]]{0,500}\]|"[^"]{0,200}"|'[^']{0,200}')/gi;

/**
 * Whether the part a page marks as not free (hasPart's cssSelector, by class, as search
 * engines ask the markup to name it) is in the page, holding text and no ask to subscribe:
 * the article came whole, as a metered site sends it to everyone. Without a wordCount, every
 * whole article under 2,500 characters with the markup was warned paywalled (18 of 79 of the
 * article benchmark's pages, the markup put in). Of its two pages that carry the markup, the
 * whole one holds its article in the element it names; the teaser has no such element.
 */
function paidPartCame(html: string): boolean {
  const classes = new Set<string>();
  for (const m of html.matchAll(PAID_PART)) for (const c of m[1]!.matchAll(/\.(-?[A-Za-z_][\w-]*)/g)) classes.add(c[1]!);
  if (!classes.size) return false;
  const { body } = pageOf(html);
  const tags = /<([a-z][\w-]*)\b[^<>]*?\bclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>]+))[^<>]*>/gi;
  for (let t = tags.exec(body); t; t = tags.exec(body)) {
    const name = t[1]!.toLowerCase();
    if (VOID_ELEMENTS.has(name) || !(t[2] ?? t[3] ?? t[4] ?? '').split(/\s+/).some((c) => classes.has(c))) continue;
    const start = t.index + t[0].length;
    const end = elementEnd(body, name, start);
    const text = squash(body.slice(start, end));
    if (text.length >= THIN_CHARS && !PAYWALL_ASKS.test(text)) return true;
    // Its inner elements are read with it: each part of the page once.
    tags.lastIndex = Math.max(end, start);
  }
  return false;
}

const tagPatterns = new Map<string, RegExp>();

/** Where the element `name` (lower case) whose content starts at `from` ends: its matching end tag, or the end of the text. */
function elementEnd(text: string, name: string, from: number): number {
  let tags = tagPatterns.get(name);
  if (!tags) tagPatterns.set(name, (tags = new RegExp(`<(/?)${name}(?![\\w-])`, 'gi')));
  tags.lastIndex = from;
  let depth = 1;
  for (let m = tags.exec(text); m; m = tags.exec(text)) if ((depth += m[1] ? -1 : 1) === 0) return m.index;
  return text.length;
}

/**
 * Whether a sign-in form (its password field) sits inside the page's <article>: it stands
 * where the rest of the text would be, the wall a site shows visitors who have not signed in
 * under the opening of its article. Beside the article (a site's header, a sidebar, the foot
 * of the page) it is the site's own sign-in box: 8 of the article benchmark's 91 whole
 * articles carry a password field there, none inside their <article>. Nor in the article's
 * comments (forCommenters). Read on the page without its scripts and comments, which may
 * hold a form's markup as text.
 */
function signInInArticle(html: string): boolean {
  if (!PASSWORD_FIELD.test(html)) return false;
  const { body } = pageOf(html);
  // One pass over the tags, keeping the elements open at each and, on each, where the
  // outermost <article> and the innermost comment area above it are: a look up the stack at
  // each field took 71 s on a hostile page (20,000 nested elements, 20,000 fields), and a
  // heading regex reads on from every unclosed <h2.
  const open: OpenElement[] = [];
  const opened = new Map<string, number>();
  let heading: { start: number; comments: boolean } | undefined;
  for (const t of body.matchAll(/<(\/?)([a-z][\w-]*)\b[^<>]*>/gi)) {
    const name = t[2]!.toLowerCase();
    if (t[1]) {
      if (!opened.get(name)) continue;
      const closed = open.splice(open.findLastIndex((e) => e.name === name));
      for (const e of closed) opened.set(e.name, opened.get(e.name)! - 1);
      // Read once, where it ends; 300 characters of markup hold any comment area's name.
      if (/^h[1-6]$/.test(name)) heading = { start: closed[0]!.start, comments: t.index - closed[0]!.end < 300 && COMMENT_HEADING.test(squash(body.slice(closed[0]!.end, t.index))) };
    } else if (name === 'input') {
      const top = open.at(-1);
      if (top && top.article >= 0 && PASSWORD_FIELD.test(t[0]) && !forCommenters(open, top, heading)) return true;
    } else if (!VOID_ELEMENTS.has(name) && !t[0].endsWith('/>')) {
      const above = open.at(-1);
      const i = open.length;
      const article = above && above.article >= 0 ? above.article : name === 'article' ? i : -1;
      // The post's own <article> is left out: its classes may say its comments are open.
      const comments = article >= 0 && article !== i && COMMENT_MARKUP.test(t[0]) ? i : (above?.comments ?? -1);
      open.push({ name, start: t.index, end: t.index + t[0].length, article, comments });
      opened.set(name, (opened.get(name) ?? 0) + 1);
    }
  }
  return false;
}

interface OpenElement {
  name: string;
  start: number;
  /** Just past its start tag. */
  end: number;
  /** Where in the stack the outermost <article> around it (or it) is; -1 outside any. */
  article: number;
  /** Where the innermost comment area inside that article around it (or it) is; -1 if none. */
  comments: number;
}

/** Elements without an end tag: never open around what follows them. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/**
 * Names themes give a comment area, its form and where it posts (WordPress's #comments,
 * #respond and wp-comments-post.php, "discussion", Disqus), in the id, class, name or action.
 */
const COMMENT_MARKUP = /\b(?:id|class|name|action)\s*=\s*["']?[^"'<>]*(?:comment(?!ary)|respond(?![a-z])|repl(?:y|ies)|discussion|disqus)/i;
/** A heading that is only a comment area's name ("Comments", "3 Responses", "Leave a Reply", "Kommentare (3)"). */
const COMMENT_HEADING =
  /^\W*(?:\d+\s+)?(?:comments?|responses?|replies|discussion|leave a (?:reply|comment)|post a comment|add a comment|join the discussion|kommentare?|kommentieren|commentaires?|comentarios?|coment[aá]rios?|commenti|reacties|komentarze|комментарии|коментарі|评论|評論|コメント|댓글)\W*(?:\(?\d+\)?)?\W*$/i;

/**
 * Whether a password field (inside `top`, the innermost element open at it) is the sign-in
 * that posting a comment asks for: an element around it inside the post's <article> (the form
 * among them) is named as a comment area, or the last heading before it in the article names
 * the comments. Blog themes put the comments inside the post's <article>; under a short post
 * that form read as a wall over the rest of the text. A wall's form stands under the
 * article's opening, marked as what it is (a regwall, a paywall) or not at all, never as the
 * comments.
 */
function forCommenters(open: OpenElement[], top: OpenElement, heading: { start: number; comments: boolean } | undefined): boolean {
  return top.comments >= 0 || (heading !== undefined && heading.comments && heading.start > open[top.article]!.start);
}

/**
 * The wall a teaser may stand behind, for isTeaser to weigh against the text that came back:
 * 'paywall' where the page marks its article for subscribers (marksNotFree), 'teaser' where
 * a sign-in form stands in the article (signInInArticle).
 */
export function teaserWall(html: string): 'paywall' | 'teaser' | undefined {
  if (marksNotFree(html)) return 'paywall';
  return signInInArticle(html) ? 'teaser' : undefined;
}

// ---- the step -------------------------------------------------------------------------

/**
 * Whether the page's title names a stand-in: a block or check, a consent wall, a sign-in, a
 * missing page. Where the page is long only by its links (a site's navigation, footer and
 * lists of headlines around one message: 2,000 to 9,000 characters of them in the article
 * benchmark's pages), the title is what says which page this is; a short article with a
 * consent overlay or a sign-in box beside it keeps its headline there.
 */
function titleNamesStandIn(title: string): boolean {
  const t = said(title);
  return CHALLENGE_PHRASES.test(t.toLowerCase()) || CONSENT_TITLES.test(t) || PRIVACY_HEADINGS.test(t) || titledLogin(title) || saysNotFound(t) || /^\s*404\b/.test(t);
}

/**
 * A heading that apologizes ('We apologize for the inconvenience...', 'Sorry for the
 * inconvenience'): a notice in the page's place, whose next words say what happened.
 */
const APOLOGY = /^\W*(?:we (?:apologi[sz]e|are sorry|['’]re sorry) for (?:the|any) inconvenience|sorry for (?:the|any) inconvenience)\b/i;

/** The site's name as its markup gives it (Open Graph's og:site_name, a web app's application-name). */
const SITE_NAME = /<meta\b(?=[^<>]*\b(?:property|name)\s*=\s*["']?(?:og:site_name|application-name)["'\s>])[^<>]*?\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i;

/** Whether the title is blank, or only the site's name: it names no page, neither the content nor a stand-in. */
function bareTitle(p: Page): boolean {
  if (!p.title) return true;
  const m = SITE_NAME.exec(p.html);
  const name = m && squash(m[1] ?? m[2] ?? '');
  return !!name && name.toLowerCase() === p.title.toLowerCase();
}

/** Whether every h1 of the body that has text, in a link or not, passes `test`. */
function everyH1(body: string, test: (h: string) => boolean): boolean {
  return [...body.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/gi)].map((m) => squash(m[1] ?? '')).filter(Boolean).every(test);
}

/**
 * Judges one HTML answer. The order matters where a page carries two signs: a challenge often
 * asks for JavaScript, a sign-in page too, so both come before needs_js; a consent wall may
 * have a login link, so it comes before login.
 */
export function classifyPage(input: ClassifyInput): Classification {
  const p = (judged = pageOf(input.html));
  const readable = (input.text ?? p.visible).replace(/\s+/g, ' ').trim();
  const short = p.visible.length < SHORT_CHARS;
  // The page's own words, outside its links (a template's navigation, footer and lists of
  // headlines are links), are read only where the title names a stand-in: one more pass over
  // the body of every long page otherwise.
  const few = short || (titleNamesStandIn(p.title) && squash(unlinked(p.body)).length < SHORT_CHARS);
  // A title with nothing of its own (blank, or the site's name, as templates leave on their
  // stand-ins) names neither the page nor a stand-in: the words outside the links decide then,
  // for a block page or a missing one. Not for a consent wall or a sign-in box: a 427-character
  // brief under a consent overlay, its title blanked, read as the wall.
  let ownText: string | undefined;
  const own = (): string => (ownText ??= squash(unlinked(p.body)));
  const bare = bareTitle(p);
  const bareFew = !few && bare && own().length < SHORT_CHARS;
  // A template may keep the article's headline as the title over a stand-in whose own h1 says
  // what it is ("Access Denied"): that h1, over few words of the page's own, names the page.
  const headedFew = !few && !bareFew && p.ownH1s.some((h) => titleNamesStandIn(h) || APOLOGY.test(said(h))) && own().length < SHORT_CHARS;
  // Or it keeps the headline as the title over a not-found page with no h1 at all, where the
  // page's headline was: its first sentences name it then, as they do on any page under 2,500
  // characters whatever its title. Few real pages are long only by their links and have no h1
  // of their own: 1 of the article benchmark's 91 (19 have no h1; the others are short, or
  // have more words of their own).
  const headless = !few && !bareFew && !headedFew && !p.ownH1s.length && own().length < SHORT_CHARS;
  const decide = (reason: PageReason, signal: string): Classification => ({ reason, warnings: [], signals: [signal] });
  // A consent wall in a template keeps the site's chrome around the wall's own h1 ("Antes de ir
  // a Google", "Before you continue"), where the article's headline was: when every h1 with
  // text says so, the wall is the page. Not when the article's headline stands beside it, a link
  // to itself or not: a 427-character brief under a consent overlay has both, and of the article
  // benchmark's 91 pages with either corpus wall put after <body>, one 552-character brief whose
  // h1 is a link read as the wall when only h1s not in links were asked.
  const consentHeaded = !few && p.ownH1s.length > 0 && everyH1(p.body, (h) => CONSENT_TITLES.test(said(h)));

  // Read only where a rule that reads words may decide: on longer pages none does.
  const prose = (p.visible.length <= TEMPLATE_CHARS || few || bareFew || headedFew || headless || consentHeaded) && hasArticleProse(p);

  // The stand-in's first sentences, and those under its heading where the page's first own h1
  // is: a news site's 560 characters of navigation put a block's 'made us think that you are
  // a bot' past the first 600.
  const firstWords = (): string => `${own().slice(0, 600)} | ${p.ownH1At > 0 ? squash(unlinked(p.body.slice(p.ownH1At))).slice(0, 600) : ''}`;
  const c = challenge(p, short, few || bareFew || headedFew, prose, input.status, input.url, (bare && (few || bareFew)) || headedFew ? firstWords : undefined);
  if (c) return decide('challenge', challengeSignal(p, c));
  const k = consent(p, few || consentHeaded, prose);
  if (k) return decide('consent', k);
  const l = login(p, few, prose) ?? (((bare && (few || bareFew)) || headedFew) && !prose ? bareLogin(p, own, bare, input.url) : undefined);
  if (l) return decide('login', l);
  const m = !prose && own().length < SHORT_CHARS ? signInAsPage(p, own) : undefined;
  if (m) return decide('login', m);
  const s = soft404(p, input.status, few || bareFew || headedFew || headless, prose, input.url, input.randomPathSimilarity, bareFew || headless, own);
  if (s) return decide('soft404', s);
  const j = needsJs(p, input.rendered === true, input.scriptsFailed === true);
  if (j) return decide('needs_js', j);
  // A Chinese, Japanese or Korean character counts twice, as in hasArticleProse.
  const warnings = readable.length + (readable.match(CJK)?.length ?? 0) < THIN_CHARS ? ['thin'] : [];
  return { warnings };
}

/** A page's visible text as word trigrams, without the given echoes (the asked path's words). */
function trigrams(html: string, echoes: readonly string[] = []): Set<string> {
  let text = pageOf(html).visible.toLowerCase();
  for (const e of echoes) if (e) text = text.split(e.toLowerCase()).join(' ');
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const out = new Set<string>();
  for (let i = 0; i + 2 < words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  if (words.length > 0 && words.length < 3) out.add(words.join(' '));
  return out;
}

/**
 * Whether the page has an app's root element (<div id="root">, <app-root>, …). A host that
 * answers every path with such a page and its scripts is an app that routes by path (React
 * Router, Vue Router behind a host's single-page fallback) as likely as a catch-all: only its
 * scripts can tell which.
 */
export const hasAppRoot = (html: string): boolean => APP_ROOTS.test(html);

/**
 * Word trigrams a page's scripts added to it: in the rendered page's visible text and not in
 * the static one's. 20: a sentence of the app's own (a route's heading and a paragraph are
 * dozens); a host's catch-all whose scripts draw nothing adds none.
 */
const DRAWN_TRIGRAMS = 20;

/** Whether rendering drew text of its own into the page (DRAWN_TRIGRAMS), rather than leaving the static page as it was. */
export function drawnByScripts(staticHtml: string, renderedHtml: string): boolean {
  const before = trigrams(staticHtml);
  let added = 0;
  for (const g of trigrams(renderedHtml)) if (!before.has(g) && ++added >= DRAWN_TRIGRAMS) return true;
  return false;
}

/**
 * How alike two pages' visible texts are (0..1): the Dice coefficient of their word
 * trigrams, after the requested path's own words are taken out (a catch-all page often
 * echoes the path it was asked for).
 */
export function pageSimilarity(a: string, b: string, echoes: readonly string[] = []): number {
  const x = trigrams(a, echoes);
  const y = trigrams(b, echoes);
  if (x.size === 0 && y.size === 0) return a.trim() === b.trim() ? 1 : 0;
  let shared = 0;
  for (const g of x) if (y.has(g)) shared++;
  return (2 * shared) / (x.size + y.size);
}
