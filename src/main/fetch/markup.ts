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

/**
 * Where the first "</name" (in any case) is in `html` from `from`, or -1; `name` in lower
 * case. It lowers no more than each end tag's name: String#toLowerCase of a whole page, to
 * find a script's end, took 1.5-2 ms of CPU on the article benchmark's pages (182 KB on
 * average), a tenth of extracting one.
 */
export function endTagAt(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) {
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name) return at;
  }
  return -1;
}
