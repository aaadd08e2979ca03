import { getEventListeners, once } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { linkSignals } from '../../src/main/fetch';
import { untilAborted } from '../../src/main/fetch/linked-signal';

describe('linkSignals (AbortSignal.any and AbortSignal.timeout with an end)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts with the reason of the first source that aborts, and lets go of the others', () => {
    const job = new AbortController();
    const deadline = new AbortController();
    const linked = linkSignals([job.signal, deadline.signal]);
    expect(linked.signal.aborted).toBe(false);
    const cancel = new Error('cancelled by the user');
    job.abort(cancel);
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe(cancel);
    // The deadline firing later changes nothing, and holds no listener of ours.
    expect(getEventListeners(deadline.signal, 'abort')).toHaveLength(0);
    deadline.abort(new Error('late'));
    expect(linked.signal.reason).toBe(cancel);
  });

  it('is aborted at once when a source already is', () => {
    const job = new AbortController();
    job.abort('stop');
    const linked = linkSignals([new AbortController().signal, job.signal], 10_000);
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('stop');
  });

  it('times out with a TimeoutError, as AbortSignal.timeout does', async () => {
    const linked = linkSignals([new AbortController().signal], 1);
    await once(linked.signal, 'abort');
    const node = AbortSignal.timeout(1);
    await once(node, 'abort');
    const reason = linked.signal.reason as DOMException;
    const nodes = node.reason as DOMException;
    expect(reason).toBeInstanceOf(DOMException);
    expect([reason.name, reason.message]).toEqual([nodes.name, nodes.message]);
    expect(reason.name).toBe('TimeoutError');
  });

  it('after dispose, neither a source nor the timer aborts it', () => {
    vi.useFakeTimers();
    const job = new AbortController();
    const linked = linkSignals([job.signal], 1_000);
    linked.dispose();
    vi.advanceTimersByTime(5_000);
    expect(linked.signal.aborted).toBe(false);
    job.abort();
    expect(linked.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    linked.dispose();
  });

  it('leaves nothing on a long-lived signal: 10,000 targets of a job add no listener', () => {
    const job = new AbortController();
    for (let i = 0; i < 10_000; i++) {
      const deadline = linkSignals([job.signal], 30_000);
      const fetch = linkSignals([deadline.signal, job.signal]);
      fetch.dispose();
      deadline.dispose();
    }
    expect(getEventListeners(job.signal, 'abort')).toHaveLength(0);
  });
});

describe('untilAborted (a promise that settles at once on a cancel)', () => {
  /** A promise and the function that fulfils it, for a value that comes after the cancel. */
  const later = <T>(): { p: Promise<T>; give: (v: T) => void } => {
    let give!: (v: T) => void;
    const p = new Promise<T>((resolve) => (give = resolve));
    return { p, give };
  };

  it('rejects with the signal’s reason while the work is still pending, and hands what comes later to discard', async () => {
    const stop = new AbortController();
    const work = later<string>();
    const dropped = later<string>();
    const waiting = untilAborted(work.p, stop.signal, dropped.give);
    const reason = new Error('cancelled by the user');
    stop.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    work.give('an answer nobody reads');
    expect(await dropped.p).toBe('an answer nobody reads');
  });

  it('rejects a signal already aborted, and still discards what the work gives', async () => {
    const stop = new AbortController();
    stop.abort('stop');
    const dropped = later<number>();
    await expect(untilAborted(Promise.resolve(7), stop.signal, dropped.give)).rejects.toBe('stop');
    expect(await dropped.p).toBe(7);
  });

  it('gives the work’s value or error as it is, discards nothing and leaves no listener on the signal', async () => {
    const stop = new AbortController();
    const dropped: string[] = [];
    await expect(untilAborted(Promise.resolve('page'), stop.signal, (late) => dropped.push(late))).resolves.toBe('page');
    const failure = new Error('connection refused');
    await expect(untilAborted(Promise.reject(failure), stop.signal)).rejects.toBe(failure);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    stop.abort();
    expect(dropped).toEqual([]);
  });
});
