import { getEventListeners, once } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { linkSignals } from '../../src/main/fetch';

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
