import type { ExpandedIndex } from '../main/sitemap-index';
import { MAX_CHILD_SITEMAPS, MAX_SITEMAP_DEPTH } from '../shared/urllist/xml';
import { counted, formatCount } from './progress';
import { forTerminal } from './terminal';

const SHOWN_FAILURES = 20;

/** What the user is told after the job's first line: that the pages came over HTTP, and what failed. */
export function indexNote(name: string, x: ExpandedIndex, children: number): string {
  const lines = [
    `sift batch: ${name} is a sitemap index of ${counted(children, 'child sitemap')}; Sift fetched them over HTTP and reads their ${counted(x.targets.length, 'page')} (${counted(x.read, 'sitemap')} read${x.failures.length ? `, ${formatCount(x.failures.length)} failed` : ''})`,
    // The first 20: an index of 1,000 children all blocked is one cause, said 1,000 times.
    ...x.failures.slice(0, SHOWN_FAILURES).map((f) => `  child sitemap failed: ${f.url}: ${f.why}`),
  ];
  if (x.failures.length > SHOWN_FAILURES) lines.push(`  … and ${formatCount(x.failures.length - SHOWN_FAILURES)} more child sitemaps failed`);
  if (x.skipped) lines.push(`  ${formatCount(x.skipped)} more child sitemaps not read: Sift reads at most ${formatCount(MAX_CHILD_SITEMAPS)}, nested at most ${MAX_SITEMAP_DEPTH} deep; give the rest as a list of their own`);
  // A child's failure may quote its server (the content type it sent).
  return forTerminal(`${lines.join('\n')}\n`);
}

/**
 * Why a sitemap index's pages were not submitted: more than a job holds. Reading stops once
 * the pages pass the cap, so the count is of the child sitemaps read. Told to split the
 * list by lines, a user cut the index's XML into files that are no sitemap at all.
 */
export function indexTooLong(name: string, x: ExpandedIndex, children: number, max: number): string {
  return (
    `sift batch: the child sitemaps of ${name} list ${formatCount(x.targets.length)} pages (${formatCount(x.read)} of its ${counted(children, 'child sitemap')} read), and one job holds at most ${formatCount(max)}; nothing was submitted.\n` +
    `  Raise "URLs per job" in the app’s Settings, or give Sift a few of the child sitemaps at a time, each as a list of its own (\`sift parse ${name}\` lists them).\n`
  );
}
