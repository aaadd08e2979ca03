import type { Options } from '../shared/types';
import { FetchError, parsePages, type Fetcher } from './fetch';

/**
 * Checks a list's options before it is submitted, so a typo in a page range, a regular
 * expression or a jq program is reported once, up front, instead of on every target.
 * Throws the same 422 FetchError a target would fail with.
 */
export async function checkOptions(options: Options, fetcher: Pick<Fetcher, 'extractBuffer'>): Promise<void> {
  parsePages(options.pages);
  if (options.grep !== undefined) {
    try {
      new RegExp(options.grep, 'u');
    } catch {
      try {
        new RegExp(options.grep);
      } catch (err) {
        throw new FetchError(422, `invalid grep expression: ${(err as Error).message}`, 'grep takes a JavaScript regular expression, e.g. "net (revenue|income)".', 'bad_option');
      }
    }
  }
  if (options.jq !== undefined && options.jq.trim() !== '') {
    // Compile without running: wrapped in a definition that is never called, a valid program
    // outputs nothing on any input, and an invalid one fails with jq's own compile error.
    await fetcher.extractBuffer(Buffer.from('null'), 'application/json', { jq: `def _sift_check: ${options.jq}\n; empty` }, { signal: AbortSignal.timeout(10_000) });
  }
}
