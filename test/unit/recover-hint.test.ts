import { describe, expect, it } from 'vitest';
import { DNS_HINT, FetchError, pageError, recoverHint } from '../../src/main/fetch/errors';
import { upstreamError } from '../../src/main/fetch/client';
import { recoverable } from '../../src/main/fetch/fetcher';

const NO_COPY_TAIL = /recover option|archived copy/;

/**
 * Every failure that offers the recover option, as the fetcher makes it: its hint with the
 * offer, and the hint it keeps once recovery was tried and found nothing (the fetcher then
 * adds "No archived copy: why.").
 */
const offered: [string, FetchError, string, string][] = [
  ['HTTP 404', upstreamError(404, {}), 'The page is gone; the recover option looks for an archived copy.', 'The page is gone.'],
  ['HTTP 410', upstreamError(410, {}), 'The page is gone; the recover option looks for an archived copy.', 'The page is gone.'],
  ['HTTP 500', upstreamError(500, {}), 'The server failed; try again later, or use the recover option.', 'The server failed; try again later.'],
  ['HTTP 502', upstreamError(502, {}), 'The server failed; try again later, or use the recover option.', 'The server failed; try again later.'],
  [
    'a host name that does not resolve',
    new FetchError(502, 'DNS lookup failed', DNS_HINT, 'dns'),
    'The host name does not resolve: check the URL for typos; if the site is gone, the recover option looks for an archived copy.',
    'The host name does not resolve: check the URL for typos.',
  ],
  [
    'an anti-bot check',
    pageError('challenge', 403),
    'Open the URL in a browser to pass the check, or try again later. The recover option looks for an archived copy.',
    'Open the URL in a browser to pass the check, or try again later.',
  ],
  [
    'an anti-bot check a browser did not clear',
    pageError('challenge', 503, true),
    'It did not clear in a browser either. Open the URL in a browser to pass the check, or try again later. The recover option looks for an archived copy.',
    'It did not clear in a browser either. Open the URL in a browser to pass the check, or try again later.',
  ],
  [
    'a sign-in wall',
    pageError('login', 200),
    'The page needs an account: open it in a browser and sign in. The recover option looks for an archived copy.',
    'The page needs an account: open it in a browser and sign in.',
  ],
  ['a soft 404', pageError('soft404', 200), 'Check the URL for typos or a moved page. The recover option looks for an archived copy.', 'Check the URL for typos or a moved page.'],
  [
    'a catch-all page',
    pageError('soft404', 200, false, 'random-path-twin'),
    'Check the URL for typos or a moved page. The recover option looks for an archived copy.',
    'Check the URL for typos or a moved page.',
  ],
  [
    'a parked domain',
    pageError('soft404', 200, false, 'parked-domain'),
    'Check the URL for a typo in the domain; if the site moved or closed, the recover option looks for an archived copy.',
    'Check the URL for a typo in the domain.',
  ],
];

describe('a hint that offers the recover option is built from its parts', () => {
  it.each(offered)('%s: offers it, and without the offer once recovery was tried', (_what, err, withOffer, after) => {
    expect(err.hint).toBe(withOffer);
    expect(err.hintAfterRecovery).toBe(after);
    expect(after).not.toMatch(NO_COPY_TAIL);
  });

  it('offers the recover option only for a failure the recover option is tried on, in a batch and alone', () => {
    for (const [what, err] of offered) {
      expect(recoverable(err, true), what).toBe(true);
      expect(recoverable(err, false), what).toBe(true);
    }
  });

  it('a failure the recover option is never tried on neither offers it nor loses words after it', () => {
    const never = [pageError('consent', 200), pageError('needs_js', 200), pageError('needs_js', 200, true), upstreamError(403, {}), upstreamError(429, { 'retry-after': '30' }), upstreamError(400, {})];
    for (const err of never) {
      expect(err.hint, err.msg).not.toMatch(NO_COPY_TAIL);
      expect(err.hintAfterRecovery, err.msg).toBe(err.hint);
      expect(recoverable(err), err.msg).toBe(false);
    }
  });

  it('each way of joining the offer reads as one sentence or two, with one full stop', () => {
    const advice = 'Try again later';
    expect(recoverHint({ advice, join: 'sentence' }, true)).toBe('Try again later. The recover option looks for an archived copy.');
    expect(recoverHint({ advice, join: 'clause' }, true)).toBe('Try again later; the recover option looks for an archived copy.');
    expect(recoverHint({ advice, join: 'or' }, true)).toBe('Try again later, or use the recover option.');
    expect(recoverHint({ advice, join: { if: 'it stays down' } }, true)).toBe('Try again later; if it stays down, the recover option looks for an archived copy.');
    for (const join of ['sentence', 'clause', 'or', { if: 'it stays down' }] as const) expect(recoverHint({ advice, join }, false)).toBe('Try again later.');
  });
});
