import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import type { Mode, Result } from '../../../../shared/types';
import type { LongLine, ResultPart } from '../../../../shared/ipc/contract';
import { prettyJson } from '../../../../shared/json';
import { renderMarkdown } from '../../lib/markdown';
import { formatBytes } from '../../../../shared/bytes';
import { clearHighlight, focusMatch, highlightMatch } from '../../lib/highlight';
import { pageLinesFrom, pageSegments } from '../../lib/pages';
import { bidiPieces, LINE_WINDOW, MAX_RENDERED_MARKDOWN, MAX_SHOWN_LINE, MAX_SHOWN_TEXT, shapeOf, shownPart, type Shape, type Shown } from '../../../../shared/shown';
import { emptyResultText } from '../../../../shared/empty';
import { MetaTable } from './MetaTable';

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
  const target = e.currentTarget.querySelector(`[id="${sel}"], a[name="${sel}"]`);
  target?.scrollIntoView({ block: 'start' });
  // A footnote's mark and its note are links to each other: focus goes along, so Enter, and Enter again, come back.
  if (target instanceof HTMLAnchorElement && target.hasAttribute('href')) target.focus({ preventScroll: true });
}

const SHAPE_NAMES: Record<Shape, string> = { markdown: 'Markdown', json: 'JSON', text: 'Text' };

/**
 * The whole result to the clipboard, as stored and as an export writes it (Markdown as its
 * source): selecting it by hand took one screen at a time, and past the first MiB the pane
 * does not show it at all. A long result's pane holds only the part it shows: `whole` fetches
 * the rest first. What happened stays beside the button until the result changes.
 */
function CopyButton({ shown, whole, what, bytes }: { shown: string; whole?: () => Promise<string>; what: string; bytes: number }): React.JSX.Element {
  const [outcome, setOutcome] = useState<{ of: string; busy?: boolean; error?: string } | null>(null);
  const now = outcome?.of === shown ? outcome : null;
  const copy = (): void => {
    const done = (error?: string): void => setOutcome({ of: shown, error });
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!clipboard) return done('this window has no clipboard');
    if (whole) setOutcome({ of: shown, busy: true });
    (whole ? whole() : Promise.resolve(shown)).then((text) => clipboard.writeText(text)).then(
      () => done(),
      (e: unknown) => done(copyError(e)),
    );
  };
  return (
    <>
      <button type="button" className="link-button" onClick={copy} disabled={now?.busy} title={`Copy the whole result (${what}) to the clipboard`} data-testid="result-copy">
        Copy
      </button>
      <span className={now?.error ? 'warn-text' : 'muted'} role="status" data-testid="result-copy-status">
        {now && (now.busy ? `Copying ${formatBytes(bytes)}…` : now.error ? `Could not copy: ${now.error}. Select the text and press Ctrl+C, or export the job.` : `Copied ${formatBytes(bytes)}`)}
      </span>
    </>
  );
}

/** Why a copy failed, in the clipboard's words or main's (the whole result could not be read). */
function copyError(e: unknown): string {
  const message = typeof e === 'object' && e !== null && 'message' in e && typeof e.message === 'string' ? e.message : '';
  return message ? message.replace(/\.$/, '') : 'the system refused';
}

/**
 * What the pane says of the lines main cut to a window (shown.ts cutLongLines): which, how
 * long, which part of them shows and where the rest is. Without it a line of a minified page
 * read as whole, and its match, further on, as missing.
 */
export function longLinesText(lines: readonly LongLine[]): string {
  const n = (v: number): string => v.toLocaleString();
  const first = lines[0];
  const around = lines.every((l) => l.match) ? 'around its match' : lines.some((l) => l.match) ? 'around its match, or from its start where Sift does not know it' : 'from its start';
  const which =
    lines.length === 1 && first
      ? `Line ${n(first.line)} is ${n(first.length)} characters long, too long to show whole: showing ${n(LINE_WINDOW)} of them${first.match ? `, around the match (from character ${n(first.from + 1)})` : ', from its start'}.`
      : `${n(lines.length)} lines are longer than ${n(MAX_SHOWN_LINE)} characters, too long to show whole: each shows ${n(LINE_WINDOW)} of them, ${around}.`;
  return `${which} Copy takes all of the result, as does exporting the job.`;
}

/**
 * Text as written, each bidi control in it marked where it stands instead of applied (shown.ts
 * bidiPieces). The mark's code point is CSS content, not text: search highlighting counts only
 * the result's own words, and Copy takes the result as stored, controls and all.
 */
function AsWritten({ text }: { text: string }): React.JSX.Element {
  const pieces = useMemo(() => bidiPieces(text), [text]);
  return (
    <>
      {pieces.map((p, i) =>
        'text' in p ? (
          <Fragment key={i}>{p.text}</Fragment>
        ) : (
          <span
            key={i}
            className="bidi-mark"
            data-char={p.control}
            title={`A ${p.name} (${p.control}) stands here. It is marked, not applied, so the text reads in the order it was written; Copy and exports keep it.`}
            data-testid="bidi-mark"
          />
        ),
      )}
    </>
  );
}

/** Where a PDF's page starts. Its number is CSS content, not text: search highlighting counts only the result's own words. */
function PageMark({ page }: { page: number }): React.JSX.Element {
  return <span className="page-mark" role="separator" aria-label={`Page ${page}`} data-page={page} data-testid="page-mark" />;
}

/** Where to scroll to and what to highlight: a search hit's words on their line. */
export interface ViewFocus {
  needle: string;
  line: number;
  /** The user's open this focus came from: the keyboard moves to the match once per open. */
  opened?: number;
}

/** Of a long result, the part the pane holds (`result.content`) and how to fetch the whole. */
export type ViewPart = ResultPart & { whole: () => Promise<string> };

/**
 * A result as the user reads it: markdown rendered (sanitized), JSON pretty, else text; then its meta.
 * `bytes` is its size as stored (UTF-8); `part`, when the content is only the part shown.
 */
export function ResultView({ result, mode, focus, bytes, part }: { result: Result; mode?: Mode; focus?: ViewFocus; bytes: number; part?: ViewPart }): React.JSX.Element {
  const shape = shapeOf(mode, result);
  const [source, setSource] = useState(false);
  const tooBig = part !== undefined || result.content.length > MAX_RENDERED_MARKDOWN;
  // A feed's result says which format it was read as (feed.ts's meta.feed).
  const feed = typeof result.meta?.['feed'] === 'string';
  const pageLines = result.meta?.page_lines;
  const pdf = result.meta?.kind === 'pdf';
  // A PDF's Markdown is rendered page by page, each page marked as its text is: its pages are
  // apart in the content (a blank line between), so no block runs from one into the next.
  const html = useMemo(
    () => (shape === 'markdown' && !source && !tooBig ? (pageSegments(result.content, pageLines) ?? [{ page: null, text: result.content }]).map((p) => ({ page: p.page, html: renderMarkdown(p.text, { feed, pdf }) })) : null),
    [shape, source, tooBig, result.content, pageLines, feed, pdf],
  );
  const needle = focus?.needle;
  const line = focus?.line;
  // By value: the pane makes a new part at each render, and a new `shown` highlights again.
  const partFrom = part?.from;
  const partLine = part?.firstLine;
  const shown = useMemo((): Shown => {
    if (html !== null) return { text: '', from: 0, firstLine: 1 };
    // Main cut it (and laid out JSON) as shownPart would.
    if (partFrom !== undefined && partLine !== undefined) return { text: result.content, from: partFrom, firstLine: partLine };
    if (shape !== 'json') return shownPart(result.content, line);
    // A hit's line is the stored content's; pretty JSON has its own lines.
    return shownPart(prettyJson(result.content) ?? result.content);
  }, [html, shape, result.content, line, partFrom, partLine]);
  const text = shown.text;
  // A PDF's Markdown shown as its source has its pages marked too.
  const pages = useMemo(() => (html === null && shape !== 'json' ? pageSegments(text, pageLinesFrom(pageLines, shown.firstLine)) : null), [html, shape, text, pageLines, shown.firstLine]);
  const cut = part ? part.sized : html === null && result.content.length > MAX_SHOWN_TEXT;
  const root = useRef<HTMLDivElement>(null);
  const [found, setFound] = useState<string | null>(null);
  const opened = focus?.opened;
  const focusedOpen = useRef<number | undefined>(undefined);
  // After the content is on screen: scroll to the match and highlight it.
  useEffect(() => {
    if (!root.current || needle === undefined || line === undefined) {
      setFound(null);
      return;
    }
    // In a part shown from further on, the hit's line and the occurrences before it count from there.
    const later = html === null && shown.from > 0;
    const hit = highlightMatch(root.current, later ? text : result.content, needle, later ? line - shown.firstLine + 1 : line);
    setFound(hit);
    if (hit !== null && opened !== undefined && focusedOpen.current !== opened) {
      focusedOpen.current = opened;
      focusMatch(root.current);
    }
    return clearHighlight;
  }, [html, text, needle, line, result.content, shown, opened]);

  return (
    <div className="result-view" data-testid="result-view" data-shape={shape} data-highlight={found ?? undefined} ref={root}>
      <div className="result-toolbar">
        <span className="muted">
          {/* "result": Meta's "Document size" is the page's, and a jq program's 14 B over a
              56 B document read as two sizes of one thing. */}
          {SHAPE_NAMES[shape]} result · {formatBytes(bytes)}
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
          {result.content !== '' && <CopyButton shown={result.content} whole={part?.whole} what={SHAPE_NAMES[shape]} bytes={bytes} />}
        </span>
      </div>
      {result.content === '' ? (
        <p className="muted" data-testid="result-empty">
          {emptyResultText(result)}
        </p>
      ) : html !== null ? (
        // Sanitized by DOMPurify in renderMarkdown; nothing in it can load or run.
        <div className="markdown" data-testid="result-markdown" onClick={followInPage}>
          {html.map((p, i) => (
            <Fragment key={i}>
              {p.page !== null && <PageMark page={p.page} />}
              <div className="markdown-part" dangerouslySetInnerHTML={{ __html: p.html }} />
            </Fragment>
          ))}
        </div>
      ) : (
        <pre className="result-text" data-testid="result-text">
          {pages
            ? pages.map((p, i) => (
                <Fragment key={i}>
                  {p.page !== null && <PageMark page={p.page} />}
                  <AsWritten text={p.text} />
                </Fragment>
              ))
            : <AsWritten text={text} />}
        </pre>
      )}
      {cut && (
        <p className="muted" data-testid="result-cut">
          {shown.from > 0
            ? `Showing ${formatBytes(MAX_SHOWN_TEXT)} around the match, from line ${shown.firstLine.toLocaleString()}; Copy takes all of it, as does exporting the job.`
            : `Showing the first ${formatBytes(MAX_SHOWN_TEXT)}; Copy takes all of it, as does exporting the job.`}
        </p>
      )}
      {part?.lines && (
        <p className="muted" data-testid="result-long-lines">
          {longLinesText(part.lines)}
        </p>
      )}
      {result.meta && <MetaTable meta={result.meta} />}
    </div>
  );
}
