import { FetchError } from './errors';

/** Why a fetch got no slot of the fetch gate; what the runner says while it waits to try again. */
export const FETCHING_BUSY = 'Sift is already fetching as many pages as it may at once';
/** Why a render got no render slot, whichever renderer (the app's window or the CLI's Chromium). */
export const RENDERING_BUSY = 'Sift is already rendering as many pages as it may at once';

/**
 * A waiter that got no slot: Sift's own limit, not the site's, with why in the words of what
 * the slots are for, which the runner says while it waits to try again.
 */
export class GateBusyError extends FetchError {
  constructor(readonly why: string) {
    super(503, 'busy', `${why}; try again in a few seconds.`, 'busy', 2_000);
  }
}

/**
 * The process-wide cap on fetches in flight (SPEC §5.3). A waiter that gets no slot within
 * waitMs fails 503 busy, which the runner retries.
 */
export class Gate {
  private active = 0;
  private readonly waiters: { grant: () => void }[] = [];
  constructor(
    private size: number,
    private waitMs: number,
    /** Why a waiter got no slot, in the words of what the slots are for. */
    private readonly why = FETCHING_BUSY,
  ) {}

  /** What a waiter that got no slot fails with: 503 busy, which the runner retries 2 s later. */
  busy(): FetchError {
    return new GateBusyError(this.why);
  }

  resize(size: number, waitMs: number): void {
    this.size = size;
    this.waitMs = waitMs;
    this.pump();
  }

  inFlight(): number {
    return this.active;
  }

  /** Fetches waiting for a slot. */
  waiting(): number {
    return this.waiters.length;
  }

  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    if (this.active < this.size && this.waiters.length === 0) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          cleanup();
          resolve(this.releaser());
        },
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(this.busy());
      }, this.waitMs);
      const onAbort = (): void => {
        cleanup();
        reject(abortReason(signal));
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.active--;
      this.pump();
    };
  }

  private pump(): void {
    while (this.active < this.size && this.waiters.length > 0) {
      const w = this.waiters.shift();
      this.active++;
      w?.grant();
    }
  }
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}
