import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { linkSignals, timeoutReason } from './linked-signal';

/**
 * Where the worker scripts live: next to this file (src/main/fetch, or its build output).
 * In a packaged app that folder is inside app.asar, which a worker thread cannot load an
 * ES module from; electron-builder unpacks the scripts beside it (asarUnpack).
 */
export function workerScript(name: string, dir: string = __dirname): string {
  return path.join(dir, name).replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

export class WorkerCrash extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrash';
  }
}

/**
 * One worker thread running one task at a time. A task whose signal aborts terminates the
 * thread (the only way to stop a looping jq program or a backtracking regex); the next task
 * starts a fresh one.
 */
export class WorkerSlot {
  private worker: Worker | undefined;
  private seq = 0;
  busy = false;
  /** Threads started: the first task starts one, and so does each task after an abort or a crash. */
  spawned = 0;
  constructor(
    private readonly script: string,
    /** 1 GiB of heap: a jq program printing forever dies here instead of taking the app down. */
    private readonly heapMb = 1024,
  ) {}

  private spawn(): Worker {
    if (!this.worker) {
      const w = new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
      this.spawned++;
      w.unref();
      w.on('error', () => {});
      w.on('exit', () => {
        if (this.worker === w) this.worker = undefined;
      });
      this.worker = w;
    }
    return this.worker;
  }

  /**
   * `onStarted`: called when the worker posts `{id, started: true}` for this task (see WorkerPool.run's limit).
   * `onRead`: called with n when it posts `{id, read: n}`, how far the task is (the PDF worker's pages).
   */
  run<T>(msg: Record<string, unknown>, signal: AbortSignal, transfer: ArrayBuffer[] = [], onStarted?: () => void, onRead?: (n: number) => void): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const w = this.spawn();
    const id = ++this.seq;
    this.busy = true;
    // A task keeps the process alive, as the I/O it stands for would: a script that only
    // awaited a large page's extraction exited (code 13) with the page half read.
    w.ref();
    return new Promise<T>((resolve, reject) => {
      const done = (): void => {
        this.busy = false;
        w.unref();
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        signal.removeEventListener('abort', onAbort);
      };
      const onMessage = (m: { id: number; started?: boolean; read?: number } & T): void => {
        if (m.id !== id) return;
        if (m.started === true) {
          onStarted?.();
          return;
        }
        if (typeof m.read === 'number') {
          onRead?.(m.read);
          return;
        }
        done();
        resolve(m);
      };
      const onError = (err: Error): void => {
        done();
        // Out of memory, it is on its way out: the next task must not be posted to it.
        if (this.worker === w) this.worker = undefined;
        reject(new WorkerCrash(err.message));
      };
      const onExit = (code: number): void => {
        done();
        reject(new WorkerCrash(`worker exited with code ${code}`));
      };
      const onAbort = (): void => {
        done();
        if (this.worker === w) this.worker = undefined;
        void w.terminate();
        reject(signal.reason);
      };
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      signal.addEventListener('abort', onAbort, { once: true });
      w.postMessage({ ...msg, id }, transfer);
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }
}

/**
 * A few WorkerSlots running one script, and the tasks waiting for one of them: a task runs
 * alone in its thread, so aborting it (which terminates the thread) stops no other task.
 */
export class WorkerPool {
  readonly slots: WorkerSlot[];
  private readonly queue: { grant: (s: WorkerSlot) => void; signal: AbortSignal }[] = [];
  constructor(script: string, size: number, heapMb?: number) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => new WorkerSlot(script, heapMb));
  }

  /** Threads started so far, by all the slots. */
  get spawned(): number {
    return this.slots.reduce((n, s) => n + s.spawned, 0);
  }

  private async slot(signal: AbortSignal): Promise<WorkerSlot> {
    const free = this.slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return free;
    }
    return new Promise((resolve, reject) => {
      const entry = { grant: (s: WorkerSlot) => (signal.removeEventListener('abort', onAbort), resolve(s)), signal };
      const onAbort = (): void => {
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
    });
  }

  private release(s: WorkerSlot): void {
    s.busy = false;
    const next = this.queue.shift();
    if (next) {
      s.busy = true;
      next.grant(s);
    }
  }

  /**
   * The task's reply, once a slot is free; a crash rejects with a WorkerCrash, an abort with
   * the signal's reason. With limitMs the task is stopped (its thread terminated) when it has
   * run that long, and rejects with a TimeoutError. The time counts from the worker's
   * `{id, started: true}` message, which a limited task's script posts when the task's own
   * work begins: not from when it waited behind others, nor while a fresh thread started and
   * loaded what it needs. A jq program given 1 s was stopped before it had run at all on a busy
   * machine, where starting the thread and loading jq's WebAssembly took longer than that.
   */
  async run<T>(msg: Record<string, unknown>, signal: AbortSignal, limitMs?: number): Promise<T> {
    const s = await this.slot(signal);
    const limit = limitMs === undefined ? undefined : new AbortController();
    const linked = limit ? linkSignals([signal, limit.signal]) : undefined;
    let clock: ReturnType<typeof setTimeout> | undefined;
    const started = (): void => {
      if (!limit || clock !== undefined) return;
      clock = setTimeout(() => limit.abort(timeoutReason()), limitMs);
      clock.unref?.();
    };
    try {
      s.busy = false; // WorkerSlot.run marks it busy again for the task's span.
      return await s.run<T>(msg, linked?.signal ?? signal, [], started);
    } finally {
      clearTimeout(clock);
      linked?.dispose();
      this.release(s);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.close()));
  }
}
