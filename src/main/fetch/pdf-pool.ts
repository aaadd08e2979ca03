import { createHash } from 'node:crypto';
import { ENCRYPTED_PDF_HINT, surfaceOf } from '../../shared/hints';
import { FetchError } from './errors';
import { WorkerCrash, WorkerSlot, workerScript } from './worker-slot';

export type PageRanges = [number, number][];

export interface PdfPage {
  n: number;
  text: string;
  /** The type size of each line of `text` that is not blank, in order (pdf-layout's pageText); none for a page that failed. */
  types?: number[];
  /** The most columns of running text side by side on this page (1: one column). */
  columns: number;
  /** Narrower columns side by side (a table's, a figure's labels) were read one after the other. */
  narrowColumns: boolean;
  /** Lines with right-to-left letters put in logical order by the bidi algorithm. */
  bidiLines: number;
  /** Page 1 only: its lines in the largest type, when clearly larger than the body (the title as printed). */
  heading?: string;
  /** The http(s) addresses of the page's link annotations, when asked for (mode links). */
  links?: string[];
  /** Why the page could not be read (it is damaged); its text is then ''. */
  failed?: string;
}

export interface PdfText {
  pagesTotal: number;
  pages: PdfPage[];
  /** `heading`: page 1's (PdfPage.heading), when page 1 is not among the pages chosen. */
  info: { title?: string; author?: string; attachments?: string[]; heading?: string };
  /** Set instead of pages when the selection (or the whole document) is over the page limit. */
  tooLong?: boolean;
  /** With tooLong for a selection: how many of the document's pages it chose. */
  selected?: number;
}

/** How many of the pages chosen have been read so far, of how many. */
export type OnPages = (done: number, total: number) => void;

interface Waiter {
  caller: string;
  resolve: (t: PdfText) => void;
  reject: (e: unknown) => void;
  onPages?: OnPages;
}

type WorkerError = { error?: { kind: string; message: string } };
type OpenReply = WorkerError & { pagesTotal: number; tooLong?: boolean; selected?: number; wanted?: number[]; pages?: PdfPage[]; info?: PdfText['info'] };
type PagesReply = WorkerError & { pages?: PdfPage[] };

interface Job {
  key: string;
  /** The slot the job counts against: a waiter's caller, handed on when that waiter leaves. */
  caller: string;
  msg: { data: Uint8Array; ranges: PageRanges | null; maxPages: number; links: boolean };
  waiters: Set<Waiter>;
  ac: AbortController;
  running: boolean;
  done: boolean;
  /** After the worker that opened the document answered: what is known so far. */
  opened?: { pagesTotal: number; info: PdfText['info']; wanted: number[] };
  /** Page texts as they come in, from any worker. */
  pages: Map<number, PdfPage>;
  /** Page numbers not yet handed to a worker, in chunks. */
  chunks: number[][];
  /** Workers busy on this job (the opener and chunk helpers). */
  busy: number;
  /** Pages read by the chunks still running, before their replies bring them into `pages`. */
  reading: number;
  /** The count last told to the waiters: a chunk's reply moves no page already counted. */
  told: number;
}

export interface PdfPoolStats {
  workers: number;
  /** Extractions started since the pool was made (single flight keeps this low). */
  started: number;
  running: Record<string, number>;
  /** The most extractions one caller ever had running at once. */
  peak: Record<string, number>;
  /** Page chunks of a started document run by a second worker beside the first. */
  helped: number;
}

/** Pages the opening worker extracts before it answers with the page list. */
const FIRST_PAGES = 4;
/** Pages per chunk handed to a worker after that: small enough to spread, big enough to amortise a message. */
const CHUNK_PAGES = 16;

/**
 * Text extraction from PDFs, off the main thread (SPEC §5.8):
 * - single flight: concurrent requests for the same bytes, pages and limit share one run;
 * - one slot per caller name: a caller's second PDF waits for its first, so one caller
 *   cannot take every worker. Batch work comes as "NAME/batch" (task 06 rule 3), a
 *   different name, so a batch never takes the interactive slot of NAME.
 * - one large document is spread over the workers: once a worker has opened it and named
 *   its pages, idle workers take chunks of its pages. A waiting document of a caller with
 *   nothing running always goes first, so a helper worker is lent, never kept.
 */
export class PdfPool {
  private readonly slots: WorkerSlot[];
  private readonly jobs = new Map<string, Job>();
  private readonly queue: Job[] = [];
  /** Started jobs that are not finished, oldest first. */
  private readonly active: Job[] = [];
  private readonly running = new Map<string, number>();
  private readonly peak = new Map<string, number>();
  private started = 0;
  private helped = 0;

  constructor(size = 2) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => new WorkerSlot(workerScript('pdf-worker.mjs')));
  }

  static key(data: Uint8Array, ranges: PageRanges | null, maxPages: number, links = false): string {
    return `${createHash('sha256').update(data).digest('hex')}|${JSON.stringify(ranges)}|${maxPages}${links ? '|links' : ''}`;
  }

  /**
   * The text of a PDF's pages; with `links`, also each page's link annotations. Those are
   * read only when asked: pdf.js parses every annotation of a page to list them, which took
   * the 352-page book from 0.54 to 1.48 s. `onPages` hears how far the reading is as pages
   * are read by the workers: once the document is open (its first FIRST_PAGES), then at each
   * page after them, the last call saying every page is read; none after its waiter gave up.
   * A chunk of CHUNK_PAGES heavy pages takes seconds, so a count told per chunk stood at
   * "32 of 40" while the rest was read, and never reached 40 (the runner keeps ≤ 1 per 100 ms).
   */
  extract(caller: string, data: Uint8Array, ranges: PageRanges | null, maxPages: number, signal: AbortSignal, links = false, onPages?: OnPages): Promise<PdfText> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const key = PdfPool.key(data, ranges, maxPages, links);
    let job = this.jobs.get(key);
    if (!job) {
      job = { key, caller, msg: { data, ranges, maxPages, links }, waiters: new Set(), ac: new AbortController(), running: false, done: false, pages: new Map(), chunks: [], busy: 0, reading: 0, told: 0 };
      this.jobs.set(key, job);
      this.queue.push(job);
    }
    const j = job;
    return new Promise<PdfText>((resolve, reject) => {
      const w: Waiter = {
        caller,
        resolve: (t) => (signal.removeEventListener('abort', onAbort), resolve(t)),
        reject: (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
        ...(onPages ? { onPages } : {}),
      };
      const onAbort = (): void => {
        j.waiters.delete(w);
        reject(signal.reason);
        if (j.waiters.size === 0) this.drop(j);
        else this.handOver(j);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      j.waiters.add(w);
      this.schedule();
    });
  }

  stats(): PdfPoolStats {
    return { workers: this.slots.length, started: this.started, running: Object.fromEntries(this.running), peak: Object.fromEntries(this.peak), helped: this.helped };
  }

  /**
   * The job's caller gave up but others still wait: it goes on in a remaining waiter's slot,
   * so a batch sharing an interactive caller's document never keeps the interactive slot
   * (task 06 rule 3) and that caller's next PDF can start.
   */
  private handOver(j: Job): void {
    const callers = [...j.waiters].map((w) => w.caller);
    if (callers.includes(j.caller) || callers.length === 0) return;
    const next = callers[0]!;
    if (j.running) {
      this.count(j.caller, -1);
      this.count(next, +1);
    }
    j.caller = next;
    this.schedule();
  }

  private count(caller: string, delta: number): void {
    const n = (this.running.get(caller) ?? 0) + delta;
    if (n <= 0) this.running.delete(caller);
    else this.running.set(caller, n);
    if (delta > 0) this.peak.set(caller, Math.max(n, this.peak.get(caller) ?? 0));
  }

  /** Nobody waits for this job any more: dequeue it, or stop its workers. */
  private drop(j: Job): void {
    if (this.jobs.get(j.key) === j) this.jobs.delete(j.key);
    const i = this.queue.indexOf(j);
    if (i >= 0) this.queue.splice(i, 1);
    j.ac.abort(new Error('no longer wanted'));
  }

  private schedule(): void {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      // First a document whose caller runs nothing (the per-caller slot rule) ...
      const idx = this.queue.findIndex((j) => (this.running.get(j.caller) ?? 0) === 0);
      const next = idx >= 0 ? this.queue.splice(idx, 1)[0] : undefined;
      if (next) {
        this.open(slot, next);
        continue;
      }
      // ... else a chunk of pages of a running document, the one with the fewest helpers first.
      const job = this.active.filter((j) => !j.done && j.chunks.length > 0).sort((a, b) => a.busy - b.busy)[0];
      if (!job) return;
      this.chunk(slot, job);
    }
  }

  private open(slot: WorkerSlot, job: Job): void {
    job.running = true;
    this.started++;
    this.active.push(job);
    this.count(job.caller, +1);
    const { ranges, maxPages, links } = job.msg;
    this.run<OpenReply>(slot, job, { op: 'open', key: job.key, ranges, maxPages, links, first: FIRST_PAGES }, (r) => {
      if (r.tooLong) {
        const selected = r.selected !== undefined ? { selected: r.selected } : {};
        this.finish(job, (w) => w.resolve({ pagesTotal: r.pagesTotal, pages: [], info: {}, tooLong: true, ...selected }));
        return;
      }
      const wanted = r.wanted ?? [];
      job.opened = { pagesTotal: r.pagesTotal, info: r.info ?? {}, wanted };
      for (const p of r.pages ?? []) job.pages.set(p.n, p);
      for (let i = FIRST_PAGES; i < wanted.length; i += CHUNK_PAGES) job.chunks.push(wanted.slice(i, i + CHUNK_PAGES));
      this.pagesRead(job);
    });
  }

  private chunk(slot: WorkerSlot, job: Job): void {
    const pages = job.chunks.shift() as number[];
    this.helped++;
    let read = 0;
    const onRead = (n: number): void => {
      if (job.done || n <= read) return;
      job.reading += n - read;
      read = n;
      this.pagesRead(job);
    };
    this.run<PagesReply>(slot, job, { op: 'pages', key: job.key, pages, links: job.msg.links }, (r) => {
      job.reading -= read;
      for (const p of r.pages ?? []) job.pages.set(p.n, p);
      this.pagesRead(job);
    }, onRead);
  }

  /**
   * Tells the job's waiters how many of its pages are read, each count once. A document read
   * whole at its open (FIRST_PAGES or fewer) tells nothing: its result comes at once.
   */
  private pagesRead(job: Job): void {
    const total = job.opened?.wanted.length ?? 0;
    const done = Math.min(total, job.pages.size + job.reading);
    if (done <= job.told || (job.told === 0 && done === total)) return;
    job.told = done;
    for (const w of job.waiters) {
      try {
        w.onPages?.(done, total);
      } catch {
        // A listener's fault is not the document's: the reading goes on.
      }
    }
  }

  /** One request of a job on one worker; the job is complete when no worker is busy on it and no chunk is left. */
  private run<R extends WorkerError>(slot: WorkerSlot, job: Job, msg: Record<string, unknown>, onReply: (r: R) => void, onRead?: (n: number) => void): void {
    job.busy++;
    // A copy goes to the worker: the caller's buffer may be a slice of a pooled Buffer.
    const copy = new Uint8Array(job.msg.data);
    slot
      .run<R>({ ...msg, data: copy }, job.ac.signal, [copy.buffer], undefined, onRead)
      .then(
        (r) => {
          if (r.error) throw r.error.kind === 'encrypted' ? encrypted(job.caller) : r.error.kind === 'stream_too_large' ? streamTooLarge(r.error.message) : malformed(r.error.message, job.msg.data);
          if (!job.done) onReply(r);
        },
        (err: unknown) => {
          throw err instanceof WorkerCrash ? malformed(err.message) : err;
        },
      )
      .then(
        () => {
          job.busy--;
          if (job.done) return this.schedule();
          if (job.opened && job.busy === 0 && job.chunks.length === 0) {
            const { pagesTotal, info, wanted } = job.opened;
            const pages = wanted.map((n) => job.pages.get(n)).filter((p): p is PdfPage => p !== undefined);
            this.finish(job, (w) => w.resolve({ pagesTotal, pages, info }));
          } else this.schedule();
        },
        (e: unknown) => {
          job.busy--;
          if (job.done) return this.schedule();
          job.ac.abort(e); // the job's other workers stop too
          this.finish(job, (w) => w.reject(e));
        },
      );
  }

  private finish(job: Job, settle: (w: Waiter) => void): void {
    job.done = true;
    job.chunks = [];
    const i = this.active.indexOf(job);
    if (i >= 0) this.active.splice(i, 1);
    if (this.jobs.get(job.key) === job) this.jobs.delete(job.key);
    this.count(job.caller, -1);
    for (const w of job.waiters) settle(w);
    job.waiters.clear();
    this.schedule();
  }

  async close(): Promise<void> {
    for (const j of [...this.jobs.values()]) {
      for (const w of j.waiters) w.reject(new Error('PDF pool closed'));
      this.drop(j);
    }
    await Promise.all(this.slots.map((s) => s.close()));
  }
}

/** A password-protected PDF, with what to do in the words of the caller's surface. */
const encrypted = (caller: string): FetchError => new FetchError(422, 'encrypted PDF: it needs a password', ENCRYPTED_PDF_HINT[surfaceOf(caller)], 'bad_document');
const streamTooLarge = (why: string): FetchError =>
  new FetchError(
    422,
    `document too long: ${why}`,
    'No page needs that much: the file is likely made to exhaust memory (a decompression bomb). Open it in a PDF reader only if you trust its source.',
    'too_long',
  );
function malformed(why: string, data?: Uint8Array): FetchError {
  // A PDF ends with %%EOF (writers may add a few bytes after it). Without one, the likeliest
  // damage is a download or a copy that stopped early, and pdf.js's own words for it
  // ("Invalid PDF structure.") do not say so. Those words went on after Sift's, saying again
  // less clearly that the file is broken: they go to the log line only.
  if (data && !Buffer.from(data.subarray(Math.max(0, data.byteLength - 1024))).toString('latin1').includes('%%EOF')) {
    const err = new FetchError(
      422,
      `malformed PDF: cut short after ${data.byteLength.toLocaleString('en-US')} bytes (its end, %%EOF, is missing)`,
      'A download or a copy stopped early: download the file again, or ask its owner for a whole copy.',
      'bad_document',
    );
    err.detail = why.slice(0, 200);
    return err;
  }
  return new FetchError(422, `malformed PDF: ${why.slice(0, 200)}`, 'The file is damaged or not really a PDF; open it in a PDF reader to check.', 'bad_document');
}
