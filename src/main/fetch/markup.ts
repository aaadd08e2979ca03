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
