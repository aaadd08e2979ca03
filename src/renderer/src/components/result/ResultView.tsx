import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { isPlainText, type Mode, type Result } from '../../../../shared/types';
import { MAX_RENDERED_MARKDOWN, prettyJson, renderMarkdown } from '../../lib/markdown';
import { formatBytes } from '../../lib/format';
import { clearHighlight, highlightMatch } from '../../lib/highlight';
import { pageLinesFrom, pageSegments } from '../../lib/pages';
import { MAX_SHOWN_TEXT, shownPart, type Shown } from '../../lib/shown';
import { emptyResultText } from '../../../../shared/empty';
import { MetaTable } from './MetaTable';

type Shape = 'markdown' | 'json' | 'text';

function shapeOf(mode: Mode | undefined, result: Result): Shape {
  const type = typeof result.meta?.content_type === 'string' ? result.meta.content_type : '';
  if (mode === 'meta') return 'json';
  // A feed (RSS, Atom, JSON Feed) was read into its entries: Markdown, or as asked.
  if (result.meta?.feed) return mode === undefined || mode === 'markdown' ? 'markdown' : 'text';
  // jq -r's lines (text asked of a jq program) are text, though the document was JSON.
  if (result.meta?.jq_raw) return 'text';
  // By what Sift read it as, too: JSON sent as text/html is JSON.
  if (/json/i.test(type) || result.meta?.kind === 'json') return 'json';
  // A PDF's text is not markdown: a line "1. Introduction" would become a list, an indented
  // one code. It reads as laid out, with its pages marked.
  if (result.meta?.kind === 'pdf') return 'text';
  // A text document reads as it is laid out: as Markdown a CSV's rows ran into one paragraph
  // and an XML file lost its tags.
  if (isPlainText(result.meta)) return 'text';
  // grep's lines, as grep prints them: read as Markdown, matches a line apart ran into one
  // paragraph, and the "--" between two groups of context made the line above it a heading.
  if (typeof result.meta?.matches === 'number') return 'text';
  if (mode === undefined || mode === 'markdown') return 'markdown';
  return 'text';
}

/**
 * A link to a place in the result ("#fn-1", a footnote's) scrolls there itself: followed by the
 * page, it put "#fn-1" where the app keeps its screen (store/view.ts), so a reload opened the
 * composer, and Back stepped through the notes read.
 */
function followInPage(e: React.MouseEvent<HTMLDivElement>): void {
  const link = e.target instanceof Element ? e.target.closest('a[href^="#"]') : null;
  if (!link) return;
  e.preventDefault();
  let id = (link.getAttribute('href') ?? '').slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // Not percent-encoded: the id as written.
  }
  const sel = CSS.escape(id);
  e.currentTarget.querySelector(`[id="${sel}"], a[name="${sel}"]`)?.scrollIntoView({ block: 'start' });
}

const SHAPE_NAMES: Record<Shape, string> = { markdown: 'Markdown', json: 'JSON', text: 'Text' };

/**
 * The whole result to the clipboard, as stored and as an export writes it (Markdown as its
 * source): selecting it by hand took one screen at a time, and past the first MiB the pane
 * does not show it at all. What happened stays beside the button until the result changes.
 */
function CopyButton({ text, what, bytes }: { text: string; what: string; bytes: number }): React.JSX.Element {
  const [outcome, setOutcome] = useState<{ of: string; error?: string } | null>(null);
  const shown = outcome?.of === text ? outcome : null;
  const copy = (): void => {
    const done = (error?: string): void => setOutcome({ of: text, error });
    if (!navigator.clipboard) return done('this window has no clipboard');
    navigator.clipboard.writeText(text).then(
      () => done(),
      (e: unknown) => done(e instanceof Error && e.message ? e.message.replace(/\.$/, '') : 'the system refused'),
    );
  };
  return (
    <>
      <button type="button" className="link-button" onClick={copy} title={`Copy the whole result (${what}) to the clipboard`} data-testid="result-copy">
        Copy
      </button>
      <span className={shown?.error ? 'warn-text' : 'muted'} role="status" data-testid="result-copy-status">
        {shown && (shown.error ? `Could not copy: ${shown.error}. Select the text and press Ctrl+C, or export the job.` : `Copied ${formatBytes(bytes)}`)}
      </span>
    </>
  );
}

/** Where to scroll to and what to highlight: a search hit's words on their line. */
export interface ViewFocus {
  needle: string;
  line: number;
}

/**
 * A result as the user reads it: markdown rendered (sanitized), JSON pretty, else text; then its meta.
 * `bytes` is its size as stored (UTF-8), when the job stored it.
 */
export function ResultView({ result, mode, focus, bytes }: { result: Result; mode?: Mode; focus?: ViewFocus; bytes?: number }): React.JSX.Element {
  const shape = shapeOf(mode, result);
  const [source, setSource] = useState(false);
  const tooBig = result.content.length > MAX_RENDERED_MARKDOWN;
  const html = useMemo(() => (shape === 'markdown' && !source && !tooBig ? renderMarkdown(result.content) : null), [shape, source, tooBig, result.content]);
  const needle = focus?.needle;
  const line = focus?.line;
  const shown = useMemo((): Shown => {
    if (html !== null) return { text: '', from: 0, firstLine: 1 };
    if (shape !== 'json') return shownPart(result.content, line);
    // A hit's line is the stored content's; pretty JSON has its own lines.
    return shownPart(prettyJson(result.content) ?? result.content);
  }, [html, shape, result.content, line]);
  const text = shown.text;
  const pageLines = result.meta?.page_lines;
  const pages = useMemo(
    () => (html === null && shape === 'text' ? pageSegments(text, pageLinesFrom(pageLines, shown.firstLine)) : null),
    [html, shape, text, pageLines, shown.firstLine],
  );
  // The job stored the size: encoding a 40 MB result again to count it held this thread for
  // 2 to 5.5 s of the 9.6 s it froze on a loaded 2-core machine. A preview has no stored size.
  const size = useMemo(() => (bytes && bytes > 0 ? bytes : new TextEncoder().encode(result.content).length), [bytes, result.content]);
  const cut = html === null && result.content.length > MAX_SHOWN_TEXT;
  const root = useRef<HTMLDivElement>(null);
  const [found, setFound] = useState<string | null>(null);
  // After the content is on screen: scroll to the match and highlight it.
  useEffect(() => {
    if (!root.current || needle === undefined || line === undefined) {
      setFound(null);
      return;
    }
    // In a part shown from further on, the hit's line and the occurrences before it count from there.
    const part = html === null && shown.from > 0;
    setFound(highlightMatch(root.current, part ? text : result.content, needle, part ? line - shown.firstLine + 1 : line));
    return clearHighlight;
  }, [html, text, needle, line, result.content, shown]);

  return (
    <div className="result-view" data-testid="result-view" data-shape={shape} data-highlight={found ?? undefined} ref={root}>
      <div className="result-toolbar">
        <span className="muted">
          {SHAPE_NAMES[shape]} · {formatBytes(size)}
        </span>
        <span className="result-actions">
          {shape === 'markdown' && !tooBig && (
            // A toggle keeps its name and says pressed or not: "Show source" turning into "Show
            // rendered" read as a second button, with nothing saying which view was on.
            <button type="button" className="link-button" aria-pressed={source} onClick={() => setSource((v) => !v)}>
              Show source
            </button>
          )}
          {shape === 'markdown' && tooBig && <span className="muted">Shown as source: too big to render</span>}
          {result.content !== '' && <CopyButton text={result.content} what={SHAPE_NAMES[shape]} bytes={size} />}
        </span>
      </div>
      {result.content === '' ? (
        <p className="muted" data-testid="result-empty">
          {emptyResultText(result)}
        </p>
      ) : html !== null ? (
        // Sanitized by DOMPurify in renderMarkdown; nothing in it can load or run.
        <div className="markdown" data-testid="result-markdown" onClick={followInPage} dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <pre className="result-text" data-testid="result-text">
          {pages
            ? pages.map((p, i) => (
                // The page number is CSS content, not text: search highlighting counts only the result's own words.
                <Fragment key={i}>
                  {p.page !== null && <span className="page-mark" role="separator" aria-label={`Page ${p.page}`} data-page={p.page} data-testid="page-mark" />}
                  {p.text}
                </Fragment>
              ))
            : text}
        </pre>
      )}
      {cut && (
        <p className="muted" data-testid="result-cut">
          {shown.from > 0
            ? `Showing ${formatBytes(MAX_SHOWN_TEXT)} around the match, from line ${shown.firstLine.toLocaleString()}; Copy takes all of it, as does exporting the job.`
            : `Showing the first ${formatBytes(MAX_SHOWN_TEXT)}; Copy takes all of it, as does exporting the job.`}
        </p>
      )}
      {result.meta && <MetaTable meta={result.meta} />}
    </div>
  );
}
