import { describe, expect, it } from 'vitest';
import { NetActivity, stalledAfterMs, TEXTLESS_STALL_MS } from '../../src/main/fetch/render/settle';
import { SETTLE_IDLE_MS } from '../../src/main/fetch/render/types';

/** The settle rule's clock, given explicitly: a page with its text there, its DOM quiet for long. */
const TEXT: readonly [number, number] = [60_000, 5_000];
const BUDGET = 15_000;

describe('a request the page never gets an answer to', () => {
  it('counts while the page may be waiting on it, then no longer: the page settles without it', () => {
    const net = new NetActivity(BUDGET);
    const hung = stalledAfterMs(BUDGET);
    net.started('api', 'fetch', 0);
    expect(net.settled(TEXT, 1_000, BUDGET, hung - 1)).toBe(false);
    // Hung: the network is quiet from the moment it stopped counting.
    expect(net.settled(TEXT, 1_000, BUDGET, hung + SETTLE_IDLE_MS - 1)).toBe(false);
    expect(net.settled(TEXT, 1_000, BUDGET, hung + SETTLE_IDLE_MS)).toBe(true);
  });
  it('gives one that brings no text (an image, a font) only a moment', () => {
    const net = new NetActivity(BUDGET);
    net.started('pixel', 'image', 0);
    expect(net.settled(TEXT, 1_000, BUDGET, TEXTLESS_STALL_MS - 1)).toBe(false);
    expect(net.settled(TEXT, 1_000, BUDGET, TEXTLESS_STALL_MS + SETTLE_IDLE_MS)).toBe(true);
  });
  it('waits as long for a slow request under a longer budget, and forgets one that ended', () => {
    const net = new NetActivity(60_000);
    net.started('api', 'xhr', 0);
    expect(net.settled(TEXT, 1_000, 60_000, stalledAfterMs(BUDGET) + SETTLE_IDLE_MS)).toBe(false);
    net.ended('api', 8_000);
    expect(net.settled(TEXT, 1_000, 60_000, 8_000 + SETTLE_IDLE_MS)).toBe(true);
  });
});
