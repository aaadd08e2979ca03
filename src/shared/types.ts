import * as z from 'zod';
import { ReasonSchema, shownFailure } from './reasons';
import { hintOn, type Surface } from './hints';

/** What to extract from one URL. All optional; canonical JSON omits empty/false/undefined. */
export const OptionsSchema = z
  .object({
    mode: z.enum(['markdown', 'text', 'html', 'raw', 'links', 'meta']).optional(),
    question: z.string().max(2000).optional(),
    pages: z.string().max(200).optional(),
    grep: z.string().max(2000).optional(),
    jq: z.string().max(8000).optional(),
    context: z.boolean().optional(),
    recover: z.boolean().optional(),
    render: z.enum(['auto', 'always', 'never']).optional(),
  })
  .strict();
export type Options = z.infer<typeof OptionsSchema>;
export type RenderMode = NonNullable<Options['render']>;
export const RENDER_MODES: readonly RenderMode[] = ['auto', 'always', 'never'];
export type Mode = NonNullable<Options['mode']>;
export const MODES: readonly Mode[] = ['markdown', 'text', 'html', 'raw', 'links', 'meta'];
/** What each mode gives, in a few words (the app's mode select; what leaving an option out would give). */
export const MODE_NOTES: Readonly<Record<Mode, string>> = {
  markdown: 'the readable article',
  text: 'the article as plain text',
  html: 'the article as clean HTML',
  raw: 'the document as served',
  links: 'every link on the page',
  meta: 'title, description and more',
};

export const TargetSchema = z.object({
  url: z.string().max(8192),
  options: OptionsSchema.optional(),
});
export type Target = z.infer<typeof TargetSchema>;

export const ResultSchema = z.object({
  content: z.string(),
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type Result = z.infer<typeof ResultSchema>;

export const JobStatusSchema = z.enum(['queued', 'running', 'done', 'failed', 'partial', 'cancelled']);
export type JobStatus = z.infer<typeof JobStatusSchema>;
export const LIVE_STATUSES: readonly JobStatus[] = ['queued', 'running'];
export const isTerminal = (s: JobStatus): boolean => s !== 'queued' && s !== 'running';

/**
 * A result that is a text document given as it is (a CSV, a log, an XML file), by its meta:
 * not Markdown, where its "#" lines would be headings and its rows one paragraph. A feed
 * (read into Markdown) and a Markdown file are not. The app shows it as text, the export
 * writes it as .txt.
 */
export function isPlainText(meta: Record<string, unknown> | undefined): boolean {
  const type = typeof meta?.content_type === 'string' ? meta.content_type : '';
  return meta?.kind === 'text' && !meta.feed && !/markdown/i.test(type);
}

/**
 * A PDF's result written in Markdown (its headings and list items marked, mode markdown): the
 * app renders it and the export writes it as .md, as a page's Markdown. meta.pdf counts what was
 * marked; a PDF read in mode markdown before it had marks has no count, and is text.
 */
export function isPdfMarkdown(meta: Record<string, unknown> | undefined): boolean {
  const pdf = meta?.pdf;
  return meta?.kind === 'pdf' && typeof pdf === 'object' && pdf !== null && typeof (pdf as Record<string, unknown>).headings === 'number';
}

export const TargetStateSchema = z.enum(['pending', 'running', 'done', 'failed']);
export type TargetState = z.infer<typeof TargetStateSchema>;

export const JobSchema = z.object({
  id: z.string(),
  caller: z.string(),
  callerClass: z.string(),
  status: JobStatusSchema,
  error: z.string(),
  targetsTotal: z.number().int(),
  targetsDone: z.number().int(),
  /** Of targetsDone, how many failed. */
  targetsFailed: z.number().int(),
  /**
   * Of targetsFailed, how many were cut short rather than failed (CUT_SHORT_ERRORS: the
   * target in flight when the job was cancelled or Sift was closed); absent when none. They
   * are not finished: "run the rest again" takes them.
   */
  targetsCutShort: z.number().int().optional(),
  /**
   * Of the ok targets (targetsDone - targetsFailed), how many came back empty (0 B: no passage
   * answered the question, no line matched the grep, the page had no text); absent when none.
   */
  targetsEmpty: z.number().int().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  leaseExpires: z.number(),
  /** What the job's list is called: the dropped file's name, or the first URL's host and the count. */
  label: z.string().optional(),
});
export type Job = z.infer<typeof JobSchema>;

/**
 * A job's stored error when the store stopped it (SQLite could not take its next result),
 * with why in a person's words and what to do before running the rest again. Short and
 * without the database's path: `sift jobs` lists it and the app shows it; the CLI's own
 * message names the file when it happens. Any other error that stops a job is "internal error".
 */
export const STORE_STOPS = {
  'disk full': { why: "the disk that holds Sift's database was full", first: 'free some space on that disk' },
  'database damaged': { why: "Sift's database is damaged", first: 'move the database file aside so Sift starts a new one' },
  'database could not be written': { why: 'Sift could not write its database', first: 'make the database file and its folder writable' },
} as const satisfies Record<string, { why: string; first: string }>;
export type StoreStop = keyof typeof STORE_STOPS;

/** Why the store stopped this failed job, or undefined when it did not. */
export function storeStopOf(j: Pick<Job, 'status' | 'error'>): (typeof STORE_STOPS)[StoreStop] | undefined {
  return j.status === 'failed' && Object.hasOwn(STORE_STOPS, j.error) ? STORE_STOPS[j.error as StoreStop] : undefined;
}

/**
 * A running target that waits to be fetched again because its site (or Sift's own limit on
 * fetches at once) answered busy: 429/503, retried for up to a minute (SPEC §3 rule 10).
 */
export const TargetWaitSchema = z.object({
  /** When the next try starts (ms since the epoch). */
  until: z.number(),
  /** How long this wait is, as decided when it began. */
  waitMs: z.number(),
  /** What was busy, in a person's words: "the site answered HTTP 429 Too Many Requests". */
  why: z.string(),
  /** The next try is the last: the retry window ends with it. */
  last: z.boolean(),
});
export type TargetWait = z.infer<typeof TargetWaitSchema>;

/** A waiting target as people read it: "waiting 12 s, then trying again: the site answered HTTP 429 Too Many Requests". */
export function waitingText(w: TargetWait, nowMs: number): string {
  const s = Math.ceil((w.until - nowMs) / 1000);
  if (s <= 0) return `trying again: ${w.why}`;
  return `waiting ${s} s, then trying ${w.last ? 'a last time' : 'again'}: ${w.why}`;
}

/** A running target's PDF as its reading goes: pages read so far, of the pages chosen. */
export const PagesReadSchema = z.object({ done: z.number().int().min(0), total: z.number().int().min(1) });
export type PagesRead = z.infer<typeof PagesReadSchema>;

/** A PDF's reading as people read it: "reading the PDF: 120 of 352 pages". */
export const pagesReadText = (p: PagesRead): string => `reading the PDF: ${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} pages`;

/** One target as the UI lists it: everything but the content. */
export const TargetRowSchema = z.object({
  idx: z.number().int(),
  url: z.string(),
  options: OptionsSchema.optional(),
  status: TargetStateSchema,
  error: z.string(),
  hint: z.string(),
  bytes: z.number().int(),
  /** The HTTP-like status of a failure (404, 403, 504, …); 0 when not failed. */
  errorStatus: z.number().int(),
  /** Why a failed target failed (SPEC §5.9); '' when not failed. */
  reason: ReasonSchema.or(z.literal('')).optional(),
  /** A done result's warnings (WARNINGS: a thin page, a PDF without text); absent when none. */
  warnings: z.array(z.string()).optional(),
  title: z.string(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  /** Set while a running target waits to try again after a busy answer; never stored. */
  wait: TargetWaitSchema.optional(),
  /** Set while a running target's PDF is being read, page by page; never stored. */
  pagesRead: PagesReadSchema.optional(),
});
export type TargetRow = z.infer<typeof TargetRowSchema>;

/**
 * `n` rows alike in what the table's filter and the reason and warning chips read of a row:
 * its status, reason and warnings, and its error when it was cut short (isCutShort), '' else.
 * A big job's rows not read yet are counted this way, so the counts are the job's at once.
 */
export const RowOutcomeSchema = TargetRowSchema.pick({ status: true, error: true, reason: true, warnings: true });
export type RowOutcome = z.infer<typeof RowOutcomeSchema>;
/** `step`: the step a bad_option failure's error names (reasons.ts failedStep), which the header's chip says; absent for none. */
export const RowGroupSchema = RowOutcomeSchema.extend({ n: z.number().int().min(1), step: z.string().max(20).optional() });
export type RowGroup = z.infer<typeof RowGroupSchema>;

/**
 * Which rows the table's filter shows: a status ('pending' is "Waiting", or "Not fetched" once
 * the job ended: what "run the rest again" takes), a reason, a warning ('' for any).
 */
export const RowFilterSchema = z
  .object({ status: TargetStateSchema.or(z.literal('all')), reason: ReasonSchema.or(z.literal('')), warning: z.string().max(100) })
  .strict();
export type RowFilter = z.infer<typeof RowFilterSchema>;

/**
 * The stored errors of targets that were cut short rather than failed: `restart` (found in
 * flight at start-up), `cancelled` (the user's cancel or Ctrl-C), `interrupted` (Sift was
 * closing). SPEC §5.9 reasons `restart` and `cancelled`.
 */
export const CUT_SHORT_ERRORS: readonly string[] = ['restart', 'cancelled', 'interrupted'];

/** Stored as failed, but stopped mid-way (CUT_SHORT_ERRORS: in flight at a cancel, a close or a crash), not failed by its site. */
export const isCutShort = (r: Pick<TargetRow, 'status' | 'error'>): boolean => r.status === 'failed' && CUT_SHORT_ERRORS.includes(r.error);

/** Not finished: never started, or cut short; what "run the rest again" submits. */
export function isUnfinished(r: Pick<TargetRow, 'status' | 'error'>): boolean {
  return r.status === 'pending' || r.status === 'running' || isCutShort(r);
}

/**
 * A failed target's error and hint as the app's table and result pane and the exported files
 * show them. A target cut short is stored with a code word for its error ("restart",
 * "interrupted", "cancelled"): its row read "restart" in red. Its hint is the sentence that
 * says what happened and what to do.
 */
export function rowFailure(row: Pick<TargetRow, 'status' | 'error' | 'hint' | 'reason'>, surface?: Surface): { error: string; hint: string } {
  // Its hint is what to do next, which names a place ("run the rest again", the app's button).
  if (isCutShort(row) && row.hint) return { error: surface ? hintOn(surface, row.hint) : row.hint, hint: '' };
  return shownFailure(row, surface);
}

/**
 * A stored target as a target to submit again ("run the rest again"): its URL and its own
 * options, with `extra` over them; no options key when none are left.
 */
export function targetOfRow(r: Pick<TargetRow, 'url' | 'options'>, extra?: Options): Target {
  const options = extra && Object.keys(extra).length ? { ...r.options, ...extra } : r.options;
  return options && Object.keys(options).length ? { url: r.url, options } : { url: r.url };
}

/** A done result's warnings (meta.warnings): the names only, none empty or holding a comma (the store keeps them comma-separated). */
export function resultWarnings(result: Result | undefined): string[] {
  const w = result?.meta?.warnings;
  return Array.isArray(w) ? w.filter((x): x is string => typeof x === 'string' && x !== '' && !x.includes(',')) : [];
}

export const TargetStatusSchema = TargetRowSchema.extend({ result: ResultSchema.optional() });
export type TargetStatus = z.infer<typeof TargetStatusSchema>;
