import { Worker } from 'node:worker_threads';
import path from 'node:path';

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
  constructor(
    private readonly script: string,
    /** 1 GiB of heap: a jq program printing forever dies here instead of taking the app down. */
    private readonly heapMb = 1024,
  ) {}

  private spawn(): Worker {
    if (!this.worker) {
      const w = new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
      w.unref();
      w.on('error', () => {});
      w.on('exit', () => {
        if (this.worker === w) this.worker = undefined;
      });
      this.worker = w;
    }
    return this.worker;
  }

  run<T>(msg: Record<string, unknown>, signal: AbortSignal, transfer: ArrayBuffer[] = []): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const w = this.spawn();
    const id = ++this.seq;
    this.busy = true;
    return new Promise<T>((resolve, reject) => {
      const done = (): void => {
        this.busy = false;
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        signal.removeEventListener('abort', onAbort);
      };
      const onMessage = (m: { id: number } & T): void => {
        if (m.id !== id) return;
        done();
        resolve(m);
      };
      const onError = (err: Error): void => {
        done();
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
