import { createHash } from 'node:crypto';
import { FetchError } from './errors';
import { WorkerCrash, WorkerSlot, workerScript } from './worker-slot';

export type PageRanges = [number, number][];

export interface PdfText {
  pagesTotal: number;
  pages: { n: number; text: string }[];
  info: { title?: string; author?: string };
  /** Set instead of pages when the selection (or the whole document) is over the page limit. */
  tooLong?: boolean;
}

interface Waiter {
  caller: string;
  resolve: (t: PdfText) => void;
  reject: (e: unknown) => void;
}

interface Job {
  key: string;
  /** The slot the job counts against: a waiter's caller, handed on when that waiter leaves. */
  caller: string;
  msg: { data: Uint8Array; ranges: PageRanges | null; maxPages: number };
  waiters: Set<Waiter>;
  ac: AbortController;
  running: boolean;
}

export interface PdfPoolStats {
  workers: number;
  /** Extractions started since the pool was made (single flight keeps this low). */
  started: number;
  running: Record<string, number>;
  /** The most extractions one caller ever had running at once. */
  peak: Record<string, number>;
}

/**
 * Text extraction from PDFs, off the main thread (SPEC §5.8):
 * - single flight: concurrent requests for the same bytes, pages and limit share one run;
 * - one slot per caller name: a caller's second PDF waits for its first, so one caller
 *   cannot take every worker. Batch work comes as "NAME/batch" (task 06 rule 3), a
 *   different name, so a batch never takes the interactive slot of NAME.
 */
export class PdfPool {
  private readonly slots: WorkerSlot[];
  private readonly jobs = new Map<string, Job>();
  private readonly queue: Job[] = [];
  private readonly running = new Map<string, number>();
  private readonly peak = new Map<string, number>();
  private started = 0;

  constructor(size = 2) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => new WorkerSlot(workerScript('pdf-worker.mjs')));
  }

  static key(data: Uint8Array, ranges: PageRanges | null, maxPages: number): string {
    return `${createHash('sha256').update(data).digest('hex')}|${JSON.stringify(ranges)}|${maxPages}`;
  }

  extract(caller: string, data: Uint8Array, ranges: PageRanges | null, maxPages: number, signal: AbortSignal): Promise<PdfText> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const key = PdfPool.key(data, ranges, maxPages);
    let job = this.jobs.get(key);
    if (!job) {
      job = { key, caller, msg: { data, ranges, maxPages }, waiters: new Set(), ac: new AbortController(), running: false };
      this.jobs.set(key, job);
      this.queue.push(job);
    }
    const j = job;
    return new Promise<PdfText>((resolve, reject) => {
      const w: Waiter = {
        caller,
        resolve: (t) => (signal.removeEventListener('abort', onAbort), resolve(t)),
        reject: (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
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
    return { workers: this.slots.length, started: this.started, running: Object.fromEntries(this.running), peak: Object.fromEntries(this.peak) };
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

  /** Nobody waits for this job any more: dequeue it, or stop its worker. */
  private drop(j: Job): void {
    if (this.jobs.get(j.key) === j) this.jobs.delete(j.key);
    const i = this.queue.indexOf(j);
    if (i >= 0) this.queue.splice(i, 1);
    j.ac.abort(new Error('no longer wanted'));
  }

  private schedule(): void {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      const idx = this.queue.findIndex((j) => (this.running.get(j.caller) ?? 0) === 0);
      if (idx < 0) return;
      const [job] = this.queue.splice(idx, 1);
      if (job) this.start(slot, job);
    }
  }

  private start(slot: WorkerSlot, job: Job): void {
    job.running = true;
    this.started++;
    this.count(job.caller, +1);
    // A copy goes to the worker: the caller's buffer may be a slice of a pooled Buffer.
    const copy = new Uint8Array(job.msg.data);
    slot
      .run<PdfText & { error?: { kind: string; message: string } }>({ data: copy, ranges: job.msg.ranges, maxPages: job.msg.maxPages }, job.ac.signal, [copy.buffer])
      .then(
        (r) => {
          if (r.error) throw r.error.kind === 'encrypted' ? encrypted() : malformed(r.error.message);
          return { pagesTotal: r.pagesTotal, pages: r.pages ?? [], info: r.info ?? {}, ...(r.tooLong ? { tooLong: true } : {}) };
        },
        (err: unknown) => {
          throw err instanceof WorkerCrash ? malformed(err.message) : err;
        },
      )
      .then(
        (t) => this.finish(job, (w) => w.resolve(t)),
        (e: unknown) => this.finish(job, (w) => w.reject(e)),
      );
  }

  private finish(job: Job, settle: (w: Waiter) => void): void {
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

const encrypted = (): FetchError =>
  new FetchError(422, 'encrypted PDF: it needs a password', 'Sift cannot open password-protected PDFs; save an unprotected copy and use sift extract.', 'bad_document');
const malformed = (why: string): FetchError =>
  new FetchError(422, `malformed PDF: ${why.slice(0, 200)}`, 'The file is damaged or not really a PDF; open it in a PDF reader to check.', 'bad_document');
