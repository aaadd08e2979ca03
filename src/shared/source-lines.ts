import { isLinePairs, lastPairAtOrBefore, type LinePairs } from './line-pairs';

/**
 * Where the lines of a result that keeps some lines of a document (grep's, a question's
 * passages) were in the whole document, as extracted: [content line, document line] pairs
 * in content order, lines from 1 (meta.source_lines). Each pair starts a run: the content
 * lines after it, up to the next pair, follow on in the document; a document line of 0 starts
 * lines of the result's own (grep's "--", the blank line between passages). A search hit on
 * line 3 of a grep's output is cited as the line of the page a reader can find, 5,231.
 */
export type SourceLines = LinePairs;

/** Whether a meta value is source_lines as the pipeline writes them. */
export const isSourceLines: (v: unknown) => v is SourceLines = isLinePairs;

/** The document line of a content line (from 1); undefined for a line of the result's own. */
export function sourceLineAt(sourceLines: SourceLines, line: number): number | undefined {
  const run = lastPairAtOrBefore(sourceLines, 0, line);
  if (run === undefined) return undefined;
  const [first, from] = run;
  return from > 0 ? from + line - first : undefined;
}

/** source_lines from `origin[i]`, the document line (from 1) of content line i + 1, or 0 for a line of its own. */
export function sourceLinesOf(origin: readonly number[]): SourceLines {
  const out: SourceLines = [];
  origin.forEach((from, i) => {
    const prev = origin[i - 1];
    const follows = i > 0 && prev !== undefined && (from === 0 ? prev === 0 : prev > 0 && from === prev + 1);
    if (!follows) out.push([i + 1, from]);
  });
  return out;
}
