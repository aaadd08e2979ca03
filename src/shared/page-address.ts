import { decodeEntities } from './entities';

/**
 * The value of attribute `name` in one tag's markup, in double quotes, single quotes or none;
 * undefined when the tag has no such attribute. Read unparsed, for the few tags Sift reads
 * without parsing the page: a refresh, a canonical link, og:url. The name must follow a blank,
 * so "data-content" is not "content".
 */
export function attributeOf(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/** How far into a page its own address is looked for: pages write these tags after a stray <body> too. */
const HEAD_CHARS = 256 * 1024;

/** An absolute http(s) address as written in markup (entities decoded), else undefined. */
function webAddress(written: string | undefined): string | undefined {
  if (!written) return undefined;
  try {
    const u = new URL(decodeEntities(written.trim()));
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a page saved to a file came from: the address a browser's "Save page as" notes at its
 * top ("<!-- saved from url=(0042)https://… -->"), else its canonical link (rel may list other
 * words too), else its og:url. Only an absolute http(s) address counts. Read from the markup,
 * unparsed: the extractor links a saved page where it linked on the web, and a saved page
 * given as a list resolves its relative links against it.
 */
export function savedFrom(html: string): string | undefined {
  const head = html.slice(0, HEAD_CHARS);
  const attr = (tag: RegExp, name: string): string | undefined => {
    const el = tag.exec(head)?.[0];
    return el ? attributeOf(el, name) : undefined;
  };
  const candidates = [
    /<!--\s*saved from url=\(\d+\)(\S+?)\s*-->/i.exec(head)?.[1],
    attr(/<link\b[^>]*\brel\s*=\s*["']?(?:[^"'>]*\s)?canonical\b[^>]*>/i, 'href'),
    attr(/<meta\b[^>]*\bproperty\s*=\s*["']?og:url\b[^>]*>/i, 'content'),
  ];
  for (const c of candidates) {
    const u = webAddress(c);
    if (u) return u;
  }
  return undefined;
}

/** A page's <base href>, when it is an absolute http(s) address. */
export function baseHref(html: string): string | undefined {
  const tag = /<base\b[^>]*>/i.exec(html.slice(0, HEAD_CHARS))?.[0];
  return tag ? webAddress(attributeOf(tag, 'href')) : undefined;
}
