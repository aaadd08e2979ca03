import { isCutShort, isUnfinished, pagesReadText, storeStopOf, waitingText, type Job, type PagesRead, type TargetRow, type TargetWait } from '../shared/types';
import { FOUND_NOTHING, shownFailure, warningLabel } from '../shared/reasons';
import { readableUrl } from '../shared/readable-url';
import { countWith } from '../shared/count';
import { formatBytes } from '../shared/bytes';
import { estimateRemaining, type Remaining } from '../shared/remaining';
import { forTerminal } from './terminal';
import type { CliIO } from './io';

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** A stored time as the CLI prints it: UTC, to the second. */
export const formatWhen = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** A count as the CLI writes one: 3,000. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** "1 target", "3,000 targets": a count with its noun, as the CLI writes numbers. */
export const counted = countWith(formatCount);

/**
 * How far apart a log (stderr that is not a terminal) hears of one target's waits for the same
 * reason: twice in the runner's default minute of retries, with the last try said too.
 */
const SAY_WAIT_AGAIN_MS = 30_000;

/**
 * Live progress of a batch on stderr: on a terminal one line redrawn at most every 100 ms
 * (done/total, ok/failed, the current index, elapsed, ETA); otherwise a plain line per
 * finished target, which is what a log file or CI wants.
 */
export class Progress {
  private done = 0;
  private failed = 0;
  /** The done targets' warnings, counted as they come, which the line sums up (notesOf). */
  private ok: OkTally = tallyOf([]);
  /**
   * Of the failed, the ended job's targets stopped mid-way (Job.targetsCutShort: in flight at
   * a cancel or a close). The final line counts them apart, as sift status does: Ctrl-C's
   * "cancelled: 2/4 · ok 1 · failed 1" beside status's "1/4 finished, 0 failed, 1 stopped mid-way".
   */
  private cutShort = 0;
  private current = -1;
  /** The target in flight while it waits to try again after a busy answer (429/503). */
  private wait: { idx: number; wait: TargetWait } | null = null;
  /** The target in flight while its PDF is read, with how far. */
  private reading: { idx: number; pagesRead: PagesRead } | null = null;
  /** How many tries of the target that waits (or last waited) have failed busy so far. */
  private tries = { idx: -1, n: 0 };
  /** The last wait said as a line of its own (not on a terminal): which target, why, and when it began. */
  private saidWait: { idx: number; why: string; at: number } | undefined;
  private lastDraw = 0;
  /** The job has ended: a cancelled one has targets left, but none in flight and none to wait for. */
  private ended = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly started: number;
  /** When the last target was written: the pace so far is counted to it. */
  private lastDoneAt: number;
  /** When the target in flight began its current try (fetchingSince), null before it has one. */
  private since: number | null = null;

  constructor(
    private readonly io: CliIO,
    private readonly total: number,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    this.lastDoneAt = this.started;
    if (io.isTTY) {
      this.timer = setInterval(() => this.draw(true), 1000);
      this.timer.unref();
    }
  }

  /** Starts from a job's stored counts (a reused job may be under way or finished). */
  seed(job: Job): void {
    this.done = job.targetsDone;
    this.failed = job.targetsFailed;
  }

  target(row: TargetRow): void {
    // One target of a job is in flight: any change of a target ends the wait or the reading said before.
    this.wait = null;
    this.reading = null;
    if (row.status === 'running') {
      this.current = row.idx;
      // This clock, not the row's: the line's elapsed and ETA are read against it.
      this.since = this.now();
      this.draw(false);
      return;
    }
    if (row.status !== 'done' && row.status !== 'failed') return;
    this.since = null;
    this.done++;
    this.lastDoneAt = this.now();
    if (row.status === 'failed') this.failed++;
    else tally(this.ok, row);
    if (this.io.isTTY) {
      this.draw(false);
    } else {
      // Cut short by a cancel or a close, not failed by its site: "failed: cancelled" read as
      // a failure, beside the last line's "failed 0 · stopped mid-way 1".
      const what =
        row.status === 'done' ? `ok ${formatBytes(row.bytes)}${warningsNote(row)}` : isCutShort(row) ? `stopped mid-way (${row.error})` : `failed: ${shownFailure(row, 'cli').error}`;
      this.io.stderr.write(forTerminal(`[${formatCount(this.done)}/${formatCount(this.total)}] #${formatCount(row.idx + 1)} ${what} ${readableUrl(row.url)}\n`));
    }
  }

  /**
   * The target in flight waits to try again (its site answered 429/503): said at once, on the
   * live line (counting down) on a terminal, so a wait of up to a minute does not look hung.
   * Without one, as lines of their own, but not every wait: a site that kept answering 503
   * wrote the same line 30 times in a minute into a log (the runner asks every 2 s). A line
   * says the first wait of a target, a change of why, the last try, and otherwise one wait in
   * SAY_WAIT_AGAIN_MS, with how many tries have failed so far.
   */
  waiting(row: TargetRow): void {
    if (!row.wait) return;
    const tries = this.tries.idx === row.idx ? this.tries.n + 1 : 1;
    this.tries = { idx: row.idx, n: tries };
    this.wait = { idx: row.idx, wait: row.wait };
    this.current = row.idx;
    // A wait to try again is not the URL's time: its next try starts the count again.
    this.since = row.wait.until;
    if (this.io.isTTY) {
      this.draw(true);
      return;
    }
    // The wait's own start, not the clock: the runner set `until` as it began.
    const began = row.wait.until - row.wait.waitMs;
    const said = this.saidWait?.idx === row.idx ? this.saidWait : undefined;
    if (said && said.why === row.wait.why && !row.wait.last && began - said.at < SAY_WAIT_AGAIN_MS) return;
    this.saidWait = { idx: row.idx, why: row.wait.why, at: began };
    const again = said ? `still busy after ${counted(tries, 'try', 'tries')}: ` : '';
    this.io.stderr.write(`[${formatCount(this.done)}/${formatCount(this.total)}] #${formatCount(row.idx + 1)} ${again}${waitingText(row.wait, began)}\n`);
  }

  /**
   * The target in flight reads its PDF (the runner says so at most every 100 ms): on a
   * terminal, the live line says how far ("#3 reading the PDF: 120 of 352 pages"), so a book
   * of hundreds of pages does not look hung. A log gets nothing: a line per count would be
   * dozens for one PDF, and the target's own line follows when it is read.
   */
  pages(row: TargetRow): void {
    if (!row.pagesRead) return;
    // The first count is drawn at once: the target's running line, drawn just before, would
    // otherwise hold it back up to 100 ms, and a book's first count arrives sooner than that.
    const first = this.reading?.idx !== row.idx;
    this.wait = null;
    this.reading = { idx: row.idx, pagesRead: row.pagesRead };
    this.current = row.idx;
    this.draw(first);
  }

  line(): string {
    const now = this.now();
    const elapsed = now - this.started;
    const left = this.ended ? 0 : this.total - this.done;
    const eta = left > 0 ? etaText(this.etaOf(now), this.current) : '';
    const waiting = this.wait && left > 0 ? ` ${waitingText(this.wait.wait, now)}` : this.reading && left > 0 ? ` ${pagesReadText(this.reading.pagesRead)}` : '';
    const cur = this.current >= 0 && left > 0 ? ` · #${formatCount(this.current + 1)}${waiting}` : '';
    const notes = notesOf(this.ok);
    const warned = notes.length ? ` (${notes.join(', ')})` : '';
    const cut = this.cutShort ? ` · stopped mid-way ${formatCount(this.cutShort)}` : '';
    const done = this.done - this.cutShort;
    const failed = this.failed - this.cutShort;
    return `${formatCount(done)}/${formatCount(this.total)} · ok ${formatCount(done - failed)}${warned} · failed ${formatCount(failed)}${cut}${cur} · ${formatDuration(elapsed)}${eta}`;
  }

  private etaOf(now: number): Remaining | null {
    const job = { status: 'running', targetsDone: this.done, targetsTotal: this.total, createdAt: this.started, updatedAt: this.lastDoneAt } as const;
    return estimateRemaining(job, now, this.since);
  }

  note(text: string): void {
    if (this.io.isTTY) this.io.stderr.write('\r\x1b[2K');
    this.io.stderr.write(`${text}\n`);
    this.draw(true);
  }

  /** The job's stored counts; `rows`, its stored targets, count the warnings too (a reused job's among them). */
  finish(job: Job, rows?: readonly TargetRow[]): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.ended = true;
    this.wait = null;
    this.reading = null;
    this.done = job.targetsDone;
    this.failed = job.targetsFailed;
    this.cutShort = job.targetsCutShort ?? 0;
    if (rows) this.ok = tallyOf(rows);
    if (this.io.isTTY) this.io.stderr.write('\r\x1b[2K');
    this.io.stderr.write(`${job.status}: ${this.line()}\n`);
  }

  private draw(force: boolean): void {
    if (!this.io.isTTY) return;
    const now = this.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    drawLive(this.io, this.line());
  }
}

/** The line's ETA: a slow URL in flight is named with its time, and what is left after it is a floor. */
function etaText(r: Remaining | null, current: number): string {
  if (!r) return '';
  if (r.slowMs === undefined) return ` · ETA ${formatDuration(r.ms)}`;
  const which = current >= 0 ? `#${formatCount(current + 1)}` : 'a URL';
  return ` · ETA ${r.ms < 1000 ? 'unknown' : `over ${formatDuration(r.ms)}`}: ${which} has taken ${formatDuration(r.slowMs)} so far`;
}

/** A live line on a terminal's stderr, over the one drawn before. */
export function drawLive(io: CliIO, line: string): void {
  // A line wider than the terminal wraps, and \r then redraws only its last row: cut it.
  const columns = (io.stderr as { columns?: unknown }).columns;
  const cut = typeof columns === 'number' && columns > 1 && line.length >= columns ? `${line.slice(0, columns - 2)}…` : line;
  io.stderr.write(`\r\x1b[2K${cut}`);
}

type WarningFields = Pick<TargetRow, 'status' | 'warnings'>;

/** Said apart from "with warnings": an archived copy, as "with warnings" hid how many came back so, and what FOUND_NOTHING lists. */
const SAID_APART: readonly string[] = ['recovered', ...FOUND_NOTHING];

/**
 * How many done targets carry what a summary says apart: counted as each target ends, so the
 * live line, redrawn up to 10 times a second, reads counts instead of going over every warned
 * target of the job again.
 */
interface OkTally {
  recovered: number;
  /** Per FOUND_NOTHING warning. */
  nothing: Map<string, number>;
  /** With a warning not said apart (ok, but maybe not what was wanted). */
  others: number;
}

function tally(t: OkTally, r: WarningFields): void {
  if (r.status !== 'done' || !r.warnings?.length) return;
  if (r.warnings.includes('recovered')) t.recovered++;
  for (const w of FOUND_NOTHING) if (r.warnings.includes(w)) t.nothing.set(w, (t.nothing.get(w) ?? 0) + 1);
  if (r.warnings.some((w) => !SAID_APART.includes(w))) t.others++;
}

function tallyOf(rows: readonly WarningFields[]): OkTally {
  const t: OkTally = { recovered: 0, nothing: new Map(), others: 0 };
  for (const r of rows) tally(t, r);
  return t;
}

/** A tally as a summary says it: "1 from an archive", "2 with no match", "3 with warnings" (`warned` words the last). */
function notesOf(t: OkTally, warned = 'with warnings'): string[] {
  return [
    ...(t.recovered ? [`${formatCount(t.recovered)} from an archive`] : []),
    ...FOUND_NOTHING.flatMap((w) => {
      const n = t.nothing.get(w) ?? 0;
      return n > 0 ? [`${formatCount(n)} with ${warningLabel(w)}`] : [];
    }),
    ...(t.others ? [`${formatCount(t.others)} ${warned}`] : []),
  ];
}

/** What the done targets' warnings add to a summary, each with its count (notesOf). */
export const okNotes = (rows: readonly WarningFields[], warned = 'with warnings'): string[] => notesOf(tallyOf(rows), warned);

/** " (thin page)" after a done target with warnings; "" without. */
export function warningsNote(row: Pick<TargetRow, 'warnings'>): string {
  return row.warnings?.length ? ` (${row.warnings.map(warningLabel).join(', ')})` : '';
}

/** The warnings whose why a result's own hint (meta.hint) says better than the warning's general one: a question that names nothing, a grep's capitals, a PDF of no pages. */
export const SAID_BY_OWN_HINT: readonly string[] = ['empty', 'no_match', 'no_answer'];

/** A done result's own hint (meta.hint) where it says why it holds nothing (SAID_BY_OWN_HINT), else undefined. */
export function ownHint(warnings: readonly string[] | undefined, meta: Record<string, unknown> | undefined): string | undefined {
  const hint = meta?.hint;
  return typeof hint === 'string' && hint !== '' && warnings?.some((w) => SAID_BY_OWN_HINT.includes(w)) ? hint : undefined;
}

type FailureFields = Pick<TargetRow, 'status' | 'error' | 'hint' | 'reason'>;

/** A number as messages write one (404, 31,457,280, 2.5), with its unit when it is a size (29.8 MiB, 12 bytes). */
const NUMBER = /\d+(?:[.,]\d+)*(?: ?(?:bytes?|[KMG]iB|[kMG]B|B)\b)?/g;
const NUMBER_SPLIT = new RegExp(`(${NUMBER.source})`);

/**
 * A message cut at its numbers: the text between them at even places, the numbers at odd
 * ones. Messages of one kind (the same but for their numbers) line up place by place.
 */
const numberParts = (error: string): string[] => error.split(NUMBER_SPLIT);

/**
 * What to do about a job's failures: each kind of failure that has a hint, most common
 * first, with how many targets it hit. The progress and summary lines give each target's
 * error only, so 91 blocked targets would never say how to let them through.
 */
export function failureAdvice(rows: readonly FailureFields[], jobId: string, max = 5): string {
  // `parts`: the first error's numberParts, a number turned "…" once another error of the kind differs there.
  const kinds = new Map<string, { parts: string[]; hint: string; n: number }>();
  for (const row of rows) {
    // A target cut short (a cancel, a crash) is the rest's, and restAdvice says how to fetch it
    // from a shell; its own hint ("run the rest again", the app's button) listed it here too.
    if (row.status !== 'failed' || isCutShort(row)) continue;
    const { error, hint } = shownFailure(row, 'cli');
    if (!hint) continue;
    // Failures that differ only in their numbers are one kind ("document too long: 29.8 MiB
    // of content" and "…: 512 KiB of content" were two), said with "…" where their numbers differ.
    const key = `${error.replace(NUMBER, '#')}\0${hint}`;
    const kind = kinds.get(key);
    if (!kind) kinds.set(key, { parts: numberParts(error), hint, n: 1 });
    else {
      kind.n++;
      const parts = numberParts(error);
      kind.parts = kind.parts.map((p, i) => (i % 2 === 1 && p !== parts[i] ? '…' : p));
    }
  }
  if (kinds.size === 0) return '';
  const sorted = [...kinds.values()].sort((a, b) => b.n - a.n);
  const lines = sorted.slice(0, max).map((k) => `  ${k.n} × ${k.parts.join('')}\n      ${k.hint}\n`);
  const more = sorted.length - max;
  const tail = more > 0 ? `  (${more} more ${more === 1 ? 'kind' : 'kinds'} of failure: sift status ${jobId})\n` : '';
  return forTerminal(`what to do:\n${lines.join('')}${tail}`);
}

/** Why a terminal job has targets it did not finish, in the user's words. */
function stoppedWhy(job: Pick<Job, 'status' | 'error'>): string {
  if (job.status === 'cancelled') return 'It was cancelled';
  if (job.error === 'restart') return 'Sift stopped before it finished (it was killed or crashed, or the computer stopped)';
  const stop = storeStopOf(job);
  if (stop) return `It stopped because ${stop.why} (${stop.first} first)`;
  return 'It stopped before its end';
}

/** "It was cancelled: 4 targets of 6 did not finish": why a terminal job has a rest, and how much. */
export function unfinishedText(job: Pick<Job, 'status' | 'error' | 'targetsTotal'>, left: number): string {
  return `${stoppedWhy(job)}: ${counted(left, 'target')} of ${formatCount(job.targetsTotal)} did not finish`;
}

/**
 * What --retry-failed leaves of a job stopped early: the targets it never started (a target
 * cut short is stored failed, and retried), or ''. After a Ctrl-C, a retry fetched the one
 * target in flight and said nothing of the 10 after it (a 21-URL list cancelled at its 11th).
 */
export function neverStartedNote(job: Pick<Job, 'status' | 'error' | 'targetsTotal'>, rows: readonly Pick<TargetRow, 'status' | 'error'>[]): string {
  const n = rows.filter((r) => isUnfinished(r) && !isCutShort(r)).length;
  if (n === 0 || job.status === 'queued' || job.status === 'running') return '';
  return `${stoppedWhy(job)}: ${counted(n, 'target')} of ${formatCount(job.targetsTotal)} never started. --retry-failed leaves them; --rest fetches them`;
}

/**
 * What to do about a terminal job's targets that did not finish (never started, or cut short
 * by a cancel or a crash), or '' when every target finished: "run the rest again" is
 * `sift batch LIST --rest`.
 */
export function restAdvice(job: Pick<Job, 'status' | 'error' | 'targetsTotal'>, rows: readonly Pick<TargetRow, 'status' | 'error'>[]): string {
  const left = rows.filter(isUnfinished).length;
  if (left === 0 || job.status === 'queued' || job.status === 'running') return '';
  return (
    `${unfinishedText(job, left)}; the finished ones are kept.\n` +
    `  To fetch just those, run the same \`sift batch\` again with --rest.\n`
  );
}

/** Reasons a failure may pass with time: the site was busy, too slow, or out of reach for a moment. */
const PASSING: readonly string[] = ['busy', 'timeout', 'network'];

/**
 * How to fetch the failed targets again, when some failed for a reason that may pass, or ''.
 * Their hints say "retry the failed ones later", the app's button; `sift batch --rest` takes
 * only the targets a job did not finish, and said there was no rest to run.
 */
export function retryAdvice(rows: readonly Pick<TargetRow, 'status' | 'error' | 'reason'>[]): string {
  const failed = rows.filter((r) => r.status === 'failed' && !isCutShort(r));
  if (!failed.some((r) => PASSING.includes(r.reason ?? ''))) return '';
  return `Some failures may pass with time (a busy site, a timeout, the network): to fetch the ${counted(failed.length, 'target')} that failed again, run the same \`sift batch\` later with --retry-failed.\n`;
}
