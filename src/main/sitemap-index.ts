import type { Caller, Fetcher } from './fetch';
import { SiftError } from '../shared/errors';
import type { Options } from '../shared/types';
import { parseList, type ParsedTarget } from '../shared/urllist';
import { isSitemapIndex, MAX_CHILD_SITEMAPS, MAX_SITEMAP_DEPTH } from '../shared/urllist/xml';

/**
 * A sitemap index (<sitemapindex>: each <loc> a child sitemap, as large sites split theirs)
 * read as the pages its child sitemaps list, not as the child sitemaps themselves, which
 * fetched as targets gave their XML. The children are fetched over HTTP through the same
 * fetcher as every target (the guard, the gate, the download limit, gzip: sitemap.xml.gz),
 * whether the index came from a file, stdin or the app's composer.
 *
 * Limits: 1,000 children (the sitemaps protocol allows 50,000, each of up to 50,000 URLs,
 * far past a job's 10,000 targets); an index inside an index is read to a depth of 3, and a
 * sitemap is read once however often it is named (no loops); reading stops once the pages
 * found pass the job's cap, which then says so. Four children are fetched at a time: the
 * gate's 8 slots leave room, and one site is not sent more at once than a browser would.
 */
const AT_ONCE = 4;

/** A child sitemap that gave no page: its address, the index's line that named it, and why. */
export interface ChildFailure {
  url: string;
  line: number;
  why: string;
}

export interface ExpandedIndex {
  /** The pages, each with the index's line that named the sitemap listing it. */
  targets: ParsedTarget[];
  /** Child sitemaps read (fetched and parsed), failed, and named past the count limit. */
  read: number;
  failures: ChildFailure[];
  skipped: number;
}

/** Called after each child sitemap, with the numbers so far (the live line on a terminal). */
type OnChildRead = (done: number, total: number, pages: number) => void;

export async function expandSitemapIndex(
  children: ParsedTarget[],
  deps: { fetcher: Pick<Fetcher, 'fetchTarget'>; caller: Caller; defaults: Options; maxTargets: number; signal: AbortSignal; progress?: OnChildRead },
): Promise<ExpandedIndex> {
  const seen = new Set<string>();
  const pages = new Map<string, ParsedTarget>();
  const failures: ChildFailure[] = [];
  // The index's line naming each sitemap; a nested index's sitemaps take their parent's.
  const lineOf = new Map<string, number>();
  for (const c of children) if (!lineOf.has(c.url)) lineOf.set(c.url, c.line);
  let read = 0;
  let skipped = 0;
  let done = 0;
  let total = 0;
  let level = children.map((c) => c.url);
  for (let depth = 1; depth <= MAX_SITEMAP_DEPTH && level.length > 0; depth++) {
    const fresh = level.filter((u) => !seen.has(u) && (seen.add(u), true));
    const room = Math.max(0, MAX_CHILD_SITEMAPS - (seen.size - fresh.length));
    skipped += Math.max(0, fresh.length - room);
    const queue = fresh.slice(0, room);
    total += queue.length;
    // The sitemaps an index child names, kept in the order of the children that name them.
    const nested: string[][] = queue.map(() => []);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < queue.length && pages.size <= deps.maxTargets && !deps.signal.aborted) {
        const i = next++;
        const url = queue[i] as string;
        const line = lineOf.get(url) ?? 0;
        try {
          const r = await deps.fetcher.fetchTarget(deps.signal, deps.caller, { url, options: { mode: 'raw' } });
          const list = parseList(r.content, { format: 'xml', defaults: deps.defaults });
          if (list.targets.length === 0) failures.push({ url, line, why: list.invalid[0]?.reason ?? 'it lists no pages' });
          else read++;
          if (isSitemapIndex(r.content)) {
            nested[i] = list.targets.map((t) => t.url);
            for (const t of list.targets) if (!lineOf.has(t.url)) lineOf.set(t.url, line);
          } else for (const t of list.targets) if (!pages.has(t.url)) pages.set(t.url, { ...t, line });
        } catch (err) {
          if (deps.signal.aborted) throw err;
          // The guard's hint says how to let the address through; a target's other hints
          // (recover from an archive, say) are for a page, not a sitemap.
          const why = err instanceof SiftError ? `${err.message}${err.code === 'blocked' && err.hint ? ` (${err.hint})` : ''}` : String(err);
          failures.push({ url, line, why });
        }
        deps.progress?.(++done, total, pages.size);
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    level = nested.flat();
  }
  // A nested index deeper than MAX_SITEMAP_DEPTH is named, not read.
  skipped += level.filter((u) => !seen.has(u)).length;
  return { targets: [...pages.values()], read, failures, skipped };
}
