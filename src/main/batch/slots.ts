/**
 * A counting semaphore with a FIFO queue: the runner's `workers` bound. Jobs queue for a
 * slot per target, so with more live jobs than slots they take turns target by target.
 */
export class Slots {
  private free: number;
  private size: number;
  private readonly waiters: (() => void)[] = [];

  constructor(n: number) {
    this.free = n;
    this.size = n;
  }

  /**
   * Changes the bound (Settings → workers). A smaller bound takes effect as slots are
   * released: fetches in flight are never cut short.
   */
  resize(n: number): void {
    this.free += n - this.size;
    this.size = n;
    while (this.free > 0 && this.waiters.length) {
      this.free--;
      this.waiters.shift()!();
    }
  }

  /** Resolves with a release function, or undefined when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<(() => void) | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(this.releaser());
      };
      const onAbort = (): void => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(grant);
    });
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // After a shrink, free is negative until enough slots have come back.
      const next = this.free >= 0 ? this.waiters.shift() : undefined;
      if (next) next();
      else this.free++;
    };
  }
}
