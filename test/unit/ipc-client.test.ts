import { describe, expect, test } from 'vitest';
import { createApi } from '../../src/shared/ipc/client';
import { EVENTS, METHODS, type Envelope } from '../../src/shared/ipc/contract';

describe('createApi (the preload and the bridge build window.sift with it)', () => {
  test('exposes exactly one function per contract channel, and on()', () => {
    const api = createApi({ invoke: async () => ({ ok: true, value: null }), subscribe: () => () => {} });
    expect(Object.keys(api).sort()).toEqual([...METHODS, 'on'].sort());
    expect(Object.isFrozen(api)).toBe(true);
  });

  test('a failed call rejects with a plain {code, status, message, hint} that survives a structured clone', async () => {
    const env: Envelope = { ok: false, error: { code: 'too_many_targets', status: 422, message: 'The list has more URLs than one job may hold.', hint: 'Split the list.' } };
    const api = createApi({ invoke: async () => env, subscribe: () => () => {} });
    const err = await api.submit({ targets: [] }).then(
      () => null,
      (e: unknown) => e,
    );
    // contextBridge copies values the way structuredClone does; an Error would lose code and hint.
    expect(structuredClone(err)).toEqual({ name: 'SiftError', ...env.error });
  });

  test('listeners get the payload only; unknown events are refused', () => {
    const seen: unknown[] = [];
    let deliver: ((p: unknown) => void) | undefined;
    const api = createApi({
      invoke: async () => ({ ok: true, value: null }),
      subscribe: (_e, l) => {
        deliver = l;
        return () => {};
      },
    });
    api.on(EVENTS[0]!, (...args: unknown[]) => seen.push(args));
    deliver!({ id: 'x' });
    expect(seen).toEqual([[{ id: 'x' }]]);
    expect(() => api.on('nope' as never, () => {})).toThrow(/unknown event/);
  });
});
