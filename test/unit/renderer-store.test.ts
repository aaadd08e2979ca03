import { afterEach, describe, expect, test, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { waitingText, type TargetRow } from '../../src/shared/types';
import { laterRow, mergeRows, rowMatches } from '../../src/renderer/src/store/detail';
import { cleanOptions, createComposerSlice, effectiveOptions, noTargetsError, type ComposerSlice } from '../../src/renderer/src/store/composer';
import { ComposerList, type PackedList } from '../../src/renderer/src/lib/packed-list';
import { parseList } from '../../src/shared/urllist';
import { createViewSlice, hashOf, INFO_MS, viewFromHash, type ViewSlice } from '../../src/renderer/src/store/view';
import type { State } from '../../src/renderer/src/store';
import { createSearchSlice, focusOfHit, type SearchSlice } from '../../src/renderer/src/store/search';
import type { SearchHit } from '../../src/shared/search';
import { estimateRemaining, fetchingSince } from '../../src/shared/remaining';
import { formatRemaining, formatCreated, formatDuration, metaValue, sentenceStart } from '../../src/renderer/src/lib/format';
import { metaFieldValue, metaLabel, metaRows } from '../../src/renderer/src/lib/meta';
import { emptyResultLabel, emptyResultText } from '../../src/shared/empty';
import { histogramBars, outcomeBars, reasonBars } from '../../src/renderer/src/lib/metrics';
import { prettyJson } from '../../src/shared/json';
import { pageLinesFrom, pageSegments } from '../../src/renderer/src/lib/pages';
import { MAX_SHOWN_TEXT, shownPart } from '../../src/shared/shown';
import { failureBesideReason, shownFailure } from '../../src/shared/reasons';
import { blocked, pageError, timeoutError } from '../../src/main/fetch/errors';

const row = (idx: number, status: TargetRow['status'], finishedAt: number | null = null): TargetRow => ({
  idx,
  url: `https://example.org/${idx}`,
  status,
  error: '',
  hint: '',
  bytes: 0,
  errorStatus: 0,
  title: '',
  startedAt: null,
  finishedAt,
});

describe('target rows', () => {
  test("a page reason's error, beside its chip, does not name the reason again", () => {
    for (const reason of ['challenge', 'login', 'consent', 'soft404', 'needs_js'] as const) {
      const e = pageError(reason, 200);
      const shown = failureBesideReason({ error: e.msg, hint: e.hint }, e.reason);
      expect(shown.error).toMatch(/^the (site|page) /);
      expect(e.msg.endsWith(shown.error)).toBe(true);
      expect(shown.hint).toBe(e.hint);
    }
    // Any other error reads as it is where its first words are not the chip's.
    const notFound = { error: 'HTTP 404: Not Found', hint: 'The page is gone.' };
    expect(failureBesideReason(notFound, 'upstream')).toEqual(notFound);
    const unlabelled = { error: 'challenge: the site answered', hint: '' };
    expect(failureBesideReason(unlabelled, undefined)).toEqual(unlabelled);
  });
  test('a timeout, a blocked address and a busy site, beside their chips, say what happened without the code word', () => {
    // Beside "timed out" the row read "timeout: could not connect in time".
    const late = timeoutError('could not connect in time');
    expect(failureBesideReason({ error: late.msg, hint: late.hint }, late.reason)).toEqual({ error: 'could not connect in time', hint: late.hint });
    // Beside "blocked address" the row read "blocked — The address is private. Sift does not fetch…".
    const refused = blocked('The address is private');
    const shown = failureBesideReason({ error: refused.msg, hint: refused.hint }, refused.reason);
    expect(shown.error).toBe('The address is private');
    expect(shown.hint).toMatch(/^Sift does not fetch private, loopback or reserved addresses unless/);
    const why = { error: 'busy', hint: 'Too many pages are rendering; try again in a few seconds.' };
    expect(failureBesideReason(why, 'busy')).toEqual({ error: why.hint, hint: '' });
    // A bare code word with nothing to say in its place stays as it is.
    expect(failureBesideReason({ error: 'busy', hint: '' }, 'busy')).toEqual({ error: 'busy', hint: '' });
    // Only the chip's own code word goes: a timeout's words under another chip stay.
    expect(failureBesideReason({ error: 'timeout: could not connect in time', hint: '' }, 'network').error).toBe('timeout: could not connect in time');
  });
  test('a document of a type Sift does not read says what the address gave, not the type alone', () => {
    // The result pane headed such a row "Image/png" (s26 appqa).
    const hint = 'Sift extracts HTML, PDF, JSON and text; this document is none of them.';
    expect(failureBesideReason({ error: 'unsupported: image/png', hint }, 'unsupported')).toEqual({ error: 'the address gives image/png', hint });
    expect(failureBesideReason({ error: 'unsupported: application/vnd.ms-excel', hint }, 'unsupported').error).toBe('the address gives application/vnd.ms-excel');
    // Words that say more than a type stay as they are.
    expect(failureBesideReason({ error: 'unsupported: content-encoding zstd', hint }, 'unsupported').error).toBe('content-encoding zstd');
    expect(failureBesideReason({ error: 'unsupported: binary data (NUL bytes) labelled text/plain', hint }, 'unsupported').error).toBe('binary data (NUL bytes) labelled text/plain');
  });
  test('a bad gateway the wiring stored as "internal error" reads as what happened; a real internal error stays one', () => {
    const refused = { error: 'internal error', hint: 'connection refused. Nothing listens at that address; check the URL or try later.', reason: 'network' as const };
    expect(shownFailure(refused)).toEqual({ error: refused.hint, hint: '' });
    const bug = { error: 'internal error', hint: 'This is a bug in Sift; the log file has the details.', reason: 'internal' as const };
    expect(shownFailure(bug)).toEqual({ error: bug.error, hint: bug.hint });
    expect(shownFailure({ error: 'internal error', hint: '', reason: 'network' })).toEqual({ error: 'internal error', hint: '' });
    expect(shownFailure({ error: 'HTTP 404 Not Found', hint: 'The page is gone.', reason: 'upstream' })).toEqual({ error: 'HTTP 404 Not Found', hint: 'The page is gone.' });
  });

  test('the "not fetched" filter takes what "run the rest again" takes: never reached, or cut short', () => {
    const cut = { ...row(0, 'failed', 3), error: 'cancelled', reason: 'cancelled' as const };
    const failed = { ...row(1, 'failed', 3), error: 'HTTP 404 Not Found', reason: 'upstream' as const };
    const rows = [cut, failed, row(2, 'pending'), row(3, 'running'), row(4, 'done', 2)];
    expect(rows.filter((r) => rowMatches(r, 'pending', '')).map((r) => r.idx)).toEqual([0, 2]);
    expect(rows.filter((r) => rowMatches(r, 'failed', '')).map((r) => r.idx)).toEqual([1]);
    expect(rows.filter((r) => rowMatches(r, 'running', '')).map((r) => r.idx)).toEqual([3]);
  });

  test('a late jobDetail answer never rolls a row back to an earlier state', () => {
    expect(laterRow(row(0, 'done', 5), row(0, 'running')).status).toBe('done');
    expect(laterRow(row(0, 'pending'), row(0, 'failed', 3)).status).toBe('failed');
  });

  test("a running row's wait on a busy site shows with it, and goes when the row moves on", () => {
    const wait = { until: 5_000, waitMs: 2_000, why: 'the site answered HTTP 429 Too Many Requests', last: false };
    const waiting = { ...row(0, 'running'), wait };
    let rows = mergeRows([row(0, 'running')], [waiting]);
    expect(rows[0]!.wait).toEqual(wait);
    expect(waitingText(wait, 3_000)).toBe('waiting 2 s, then trying again: the site answered HTTP 429 Too Many Requests');
    expect(waitingText({ ...wait, last: true }, 4_200)).toBe('waiting 1 s, then trying a last time: the site answered HTTP 429 Too Many Requests');
    expect(waitingText(wait, 5_000)).toBe('trying again: the site answered HTTP 429 Too Many Requests');
    rows = mergeRows(rows, [row(0, 'done', 9)]);
    expect(rows[0]!.wait).toBeUndefined();
    // A wait never rolls a finished row back.
    expect(laterRow(row(0, 'failed', 9), waiting).status).toBe('failed');
  });

  test('merging replaces only the changed rows, so other row objects keep their identity', () => {
    const rows = [row(0, 'pending'), row(1, 'pending'), row(2, 'pending')];
    const next = mergeRows(rows, [row(1, 'done', 9)]);
    expect(next).not.toBe(rows);
    expect(next[0]).toBe(rows[0]);
    expect(next[2]).toBe(rows[2]);
    expect(next[1]!.status).toBe('done');
    expect(mergeRows(rows, [])).toBe(rows);
  });
});

describe('list options', () => {
  test('empty values are dropped so they do not change the job identity', () => {
    expect(cleanOptions({ grep: '', mode: 'text', context: false, recover: true })).toEqual({ mode: 'text', recover: true });
  });

  test("a URL's own options win over the list's", () => {
    expect(effectiveOptions({ mode: 'text', grep: 'a' }, { mode: 'raw' })).toEqual({ mode: 'raw', grep: 'a' });
    expect(effectiveOptions({}, undefined)).toBeUndefined();
  });
});

describe('nothing to submit', () => {
  test('a dropped empty file is named and said to be empty, not "there is no list yet"', () => {
    const err = noTargetsError({ kind: 'file', name: 'empty.htm', text: '  \n' }, null);
    expect(err.message).toBe('empty.htm is empty.');
    expect(err.hint).not.toMatch(/Drop a file/);
  });
  test('no list, and a list without a URL, keep their own words', () => {
    expect(noTargetsError(null, null).message).toBe('There is no list yet.');
    const parsed = ComposerList.of(parseList('nope', { format: 'text' }));
    expect(noTargetsError({ kind: 'paste', name: 'pasted', text: 'nope' }, parsed).message).toBe('Nothing in this list is a URL Sift can fetch.');
  });
  test('a list of only bad lines points at them where they are shown, not "below" the Fetch button', () => {
    const parsed = ComposerList.of(parseList('not a url\nftp://x.example/a\n', { format: 'text' }));
    const err = noTargetsError({ kind: 'paste', name: 'pasted', text: '' }, parsed);
    expect(err.hint).toBe('Each entry needs an absolute http:// or https:// address: the 2 lines Sift could not read are listed under “Invalid”, with why.');
    expect(err.hint).not.toMatch(/below/);
  });
  test('a list with no URL and no bad line says what Sift looked for in it, not that problems are listed', () => {
    const page = '<html><body><h1>Notes</h1><p>No links here.</p></body></html>';
    const err = noTargetsError({ kind: 'file', name: 'saved.html', text: page }, ComposerList.of(parseList(page, { filename: 'saved.html' })));
    expect(err.message).toBe('Sift found no URL in this list.');
    expect(err.hint).toBe('The page has no links in it. Drop or paste a list of http:// or https:// addresses.');
    const json = noTargetsError({ kind: 'file', name: 'l.json', text: '[]' }, ComposerList.of(parseList('[]', { filename: 'l.json' })));
    expect(json.hint).toMatch(/^It holds no URLs: Sift reads an array of URL strings/);
    const comments = noTargetsError({ kind: 'paste', name: 'pasted', text: '# later\n' }, ComposerList.of(parseList('# later\n', { format: 'text' })));
    expect(comments.hint).toMatch(/^It has only blank lines and # comments\./);
  });
});

describe("the composer's counts", () => {
  const composerStore = () => createStore<ComposerSlice>()((set, get, api) => createComposerSlice(set as never, get as () => State, api as never));

  test("counts a single-page app's routes as distinct URLs and an anchor as a duplicate", async () => {
    // The parse worker as the composer runs it, answering on its own message channel.
    const answers: { seq: number; packed: PackedList }[] = [];
    const scope = { onmessage: null as ((e: MessageEvent) => void) | null, postMessage: (m: { seq: number; packed: PackedList }) => answers.push(m) };
    vi.stubGlobal('self', scope);
    try {
      await import('../../src/renderer/src/parse.worker');
      const text = ['https://app.example/#/reports/1', 'https://app.example/#/reports/2', 'https://app.example/#!/item/7', 'https://app.example/#/reports/1', 'https://app.example/docs#top', 'https://app.example/docs#intro'].join('\n');
      scope.onmessage?.({ data: { seq: 1, text, opts: {} } } as MessageEvent);
    } finally {
      vi.unstubAllGlobals();
    }
    const store = composerStore();
    const packed = answers[0]?.packed;
    store.getState().setParsed(packed ? new ComposerList(packed) : null);
    const parsed = store.getState().parsed;
    expect(parsed?.all().map((t) => t.url)).toEqual(['https://app.example/#/reports/1', 'https://app.example/#/reports/2', 'https://app.example/#!/item/7', 'https://app.example/docs']);
    expect(parsed?.duplicates.map((d) => [d.line, d.reason])).toEqual([
      [4, 'duplicate of line 1'],
      [6, 'duplicate of line 5'],
    ]);
  });
});

describe('view in the hash', () => {
  test('round-trips every view, and anything else opens the composer', () => {
    for (const v of [{ kind: 'job', id: 'ab/c d' }, { kind: 'settings' }, { kind: 'activity' }, { kind: 'compose' }] as const) {
      expect(viewFromHash(hashOf(v))).toEqual(v);
    }
    expect(viewFromHash('#whatever')).toEqual({ kind: 'compose' });
  });
});

describe('formatting', () => {
  // The target in flight started as the last was written: a free worker slot, no wait to try again.
  const etaOf = (j: Parameters<typeof estimateRemaining>[0], nowMs: number) => estimateRemaining(j, nowMs, j.updatedAt);

  // Sizes: test/unit/bytes.test.ts, where the one formatter both the app and the CLI import lives.
  test('durations and the ETA', () => {
    expect(formatDuration(65_000)).toBe('1m 05s');
    // 5 of 10 done in the job's first second, the sixth just started: its share and the 4 after it.
    const job = { status: 'running' as const, targetsDone: 5, targetsTotal: 10, createdAt: 0, updatedAt: 1000 };
    expect(etaOf({ ...job, targetsDone: 0, updatedAt: 0 }, 1000)).toBeNull();
    expect(etaOf(job, 1000)).toEqual({ ms: 1000 });
    expect(etaOf(job, 1100)).toEqual({ ms: 900 });
  });

  test('the time left is never "about 0s" while targets remain', () => {
    // 8 of 15 done in 0.4 s, a slow one in flight: the header said "Remaining about 0s" (s26 appqa).
    const job = { status: 'running' as const, targetsDone: 8, targetsTotal: 15, createdAt: 0, updatedAt: 400 };
    expect(formatRemaining(etaOf(job, 400))).toBe('a few seconds');
    expect(formatRemaining(etaOf({ ...job, targetsDone: 0 }, 400))).toBe('estimating…');
    expect(formatRemaining(etaOf({ ...job, targetsDone: 5, targetsTotal: 10, updatedAt: 65_000 }, 65_000))).toBe('about 1m 05s');
  });

  test('a slow URL in flight is said with its time, and what is left after it is a floor', () => {
    // 8 of 15 done at 50 ms each: 4 s on the ninth is slow for this list, but under 5 s a
    // page a little slower than the rest is not called out.
    const job = { status: 'running' as const, targetsDone: 8, targetsTotal: 15, createdAt: 0, updatedAt: 400 };
    expect(etaOf(job, 4400)).toEqual({ ms: 300 });
    expect(formatRemaining(etaOf(job, 45_400))).toBe('unknown: one URL has taken 45s so far');
    // Pages of 10 s each: 15 s on one is within twice the pace, so still an estimate.
    const slowList = { ...job, targetsDone: 2, targetsTotal: 4, updatedAt: 20_000 };
    expect(formatRemaining(etaOf(slowList, 35_000))).toBe('about 10s');
    expect(formatRemaining(etaOf(slowList, 50_000))).toBe('over 10s: one URL has taken 30s so far');
    expect(etaOf({ ...job, status: 'cancelled' }, 45_400)).toBeNull();
  });

  test('a target waiting to try again (a busy site) or for a worker slot has no time of its own yet', () => {
    // 8 of 15 done at 50 ms each; the ninth started at 400, its site answered 429 and it waits a minute.
    const job = { status: 'running' as const, targetsDone: 8, targetsTotal: 15, createdAt: 0, updatedAt: 400 };
    const wait = { until: 60_400, waitMs: 60_000, why: 'the site answered HTTP 429 Too Many Requests', last: false };
    const row = { status: 'running' as const, startedAt: 400, wait };
    expect(formatRemaining(estimateRemaining(job, 45_400, fetchingSince(row)))).toBe('a few seconds');
    // Its next try hangs: counted from that try's start.
    expect(formatRemaining(estimateRemaining(job, 120_400, fetchingSince(row)))).toBe('unknown: one URL has taken 1m 00s so far');
    expect(fetchingSince({ status: 'pending', startedAt: null })).toBeNull();
  });

  test('a first URL that hangs is said too: "estimating…" stayed up for its whole minute', () => {
    const job = { status: 'running' as const, targetsDone: 0, targetsTotal: 15, createdAt: 0, updatedAt: 0 };
    expect(formatRemaining(etaOf(job, 4000))).toBe('estimating…');
    expect(formatRemaining(etaOf(job, 60_000))).toBe('unknown: one URL has taken 1m 00s so far');
  });

  test('an error headline starts as a sentence unless its first word is a name or an address', () => {
    expect(sentenceStart('cannot write to /tmp/out: permission denied')).toBe('Cannot write to /tmp/out: permission denied');
    expect(sentenceStart('émis trop tard')).toBe('Émis trop tard');
    for (const kept of ['jq: syntax error', 'image/png', 'http://example.org gave 404', 'HTTP 404 Not Found', 'iPhone pages', '']) expect(sentenceStart(kept)).toBe(kept);
  });

  test("a job's time is written as the locale writes a short time, with no 0 forced on a 12-hour clock", () => {
    const nine = new Date(2026, 2, 3, 9, 5).getTime();
    expect(formatCreated(nine, nine, 'en-US')).toMatch(/^9:05\sAM$/);
    expect(formatCreated(nine, nine, 'en-GB')).toBe('09:05');
    expect(formatCreated(nine, nine + 86_400_000, 'en-GB')).toBe('3 Mar 09:05');
  });

  test("the job list's time has its seconds: two runs of one list started in the same minute read apart", () => {
    const nine = new Date(2026, 2, 3, 9, 5, 7).getTime();
    expect(formatCreated(nine, nine, 'en-GB', { seconds: true })).toBe('09:05:07');
    expect(formatCreated(nine, nine + 86_400_000, 'en-GB', { seconds: true })).toBe('3 Mar 09:05:07');
  });

  test('cumulative histogram buckets become per-bucket counts', () => {
    const bars = histogramBars({ buckets: [{ le: 0.1, count: 2 }, { le: 1, count: 5 }], sum: 3, count: 7 });
    expect(bars.map((b) => b.value)).toEqual([2, 3, 2]);
  });

  test('meta values read as words: lists as items, objects as key: value, not JSON', () => {
    expect(metaValue({ bidi: false, columns: 2, dropped: ['header'] })).toBe('bidi: false, columns: 2, dropped: ["header"]');
    expect(metaValue(['thin', 'rendered'])).toBe('thin, rendered');
    expect(metaValue([])).toBe('—');
    expect(metaValue(null)).toBe('—');
    expect(metaValue(3)).toBe('3');
    expect(metaValue('text/html')).toBe('text/html');
    // A PDF without a title says so, rather than leaving its row blank.
    expect(metaValue('')).toBe('—');
  });

  test("the Meta table names each field in people's words, first fields first, with sizes, times and yes/no as people read them", () => {
    const rows = metaRows({
      fetched_ms: 2345,
      content_type: 'text/html',
      title: 'A page',
      bytes: 40_960,
      status: 200,
      final_url: 'https://a.example/b',
      url: 'https://a.example/a',
      recovered: false,
      warnings: ['thin', 'some_new_one'],
      render_ms: 412,
      page_lines: [1, 2],
      // Said by the pane as the empty result's what-to-do (emptyResultText), not again as "Hint".
      hint: 'Drop the slashes: grep searched for them too.',
      http_lenient: true,
      future_field: 'x',
    });
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ['Title', 'A page'],
      ['URL', 'https://a.example/a'],
      ['Final URL', 'https://a.example/b'],
      ['HTTP status', '200'],
      ['Content type', 'text/html'],
      ['Document size', '40.0 kB'],
      ['From an archived copy', 'no'],
      ['Fetched in', '2.3 s'],
      ['Warnings', 'thin page, some new one'],
      ['Rendered in', '412 ms'],
      ['Read as loose HTTP', 'yes'],
      // A field this build does not know keeps its name, readable.
      ['Future field', 'x'],
    ]);
    // Each row keeps the field's own name, as --json and the exports write it.
    expect(rows.map((r) => r.key)).toContain('final_url');
    expect(metaLabel('pages_total')).toBe('Pages in the PDF');
  });

  test('a page whose bytes belie the UTF-8 it names: the Meta table says the set it was read in and the one it names', () => {
    expect(metaRows({ charset: 'windows-1252', charset_declared: 'utf-8' }).map((r) => [r.label, r.value])).toEqual([
      ['Character set', 'windows-1252'],
      ['Character set it names (its bytes are not)', 'utf-8'],
    ]);
  });

  test("a PDF's reading order in the Meta table is said in words, the steps that did nothing left out", () => {
    const plain = { bidi: false, bidi_lines: 0, columns: 1, multi_column_pages: 0, dehyphenated: 0, compound_hyphens_kept: 0, furniture_removed: 0 };
    expect(metaFieldValue('pdf', plain)).toBe('as laid out: one column, nothing joined or left out');
    expect(metaFieldValue('pdf', { ...plain, bidi: true, bidi_lines: 3, columns: 2, multi_column_pages: 1, dehyphenated: 12, compound_hyphens_kept: 1, furniture_removed: 40 })).toBe(
      "1 page in 2 columns read column by column; 3 right-to-left lines put in reading order; 12 words hyphenated at a line end joined; 1 hyphen of compound words kept; 40 lines repeated on the pages' edges (headers, footers, page numbers) left out",
    );
    // A table's narrow columns are not the page's columns ("read column by column (up to 9)" of a two-column paper).
    expect(metaFieldValue('pdf', { ...plain, columns: 2, multi_column_pages: 14, narrow_column_pages: 3 })).toBe(
      '14 pages in 2 columns read column by column; 3 pages with narrow columns side by side (tables, figure labels) read one column after the other',
    );
    expect(metaFieldValue('pdf', { ...plain, narrow_column_pages: 0 })).toBe('as laid out: one column, nothing joined or left out');
    // Mode markdown's marks: "headings: 4; list items: 3" read as fields; none marked, nothing said.
    expect(metaFieldValue('pdf', { ...plain, headings: 4, list_items: 3 })).toBe('4 headings and 3 list items marked in Markdown, by type size and bullets');
    expect(metaFieldValue('pdf', { ...plain, headings: 1, list_items: 0 })).toBe('1 heading marked in Markdown, by type size and bullets');
    expect(metaFieldValue('pdf', { ...plain, headings: 0, list_items: 0 })).toBe('as laid out: one column, nothing joined or left out');
    // A step this build does not know keeps its name; no field name with underscores is left.
    expect(metaFieldValue('pdf', { ...plain, ligatures_split: 2 })).toBe('ligatures split: 2');
    expect(metaRows({ pdf: plain }).map((r) => r.value).join(' ')).not.toMatch(/_|false/);
  });

  test('an empty result says what it lacks: the links of a page that has none are not "no text"', () => {
    expect(emptyResultText({ content: '', meta: { links: 0, kind: 'html' } })).toBe('The result is empty: the document has no links.');
    expect(emptyResultText({ content: '', meta: { kind: 'html' } })).toBe('The result is empty: the document had no text.');
    expect(emptyResultText({ content: '', meta: { links: 0, kind: 'html', warnings: ['no_links'] } })).toBe('The result is empty: the document was read, and it has no links.');
    expect(emptyResultLabel({ content: '', meta: { links: 0, warnings: ['no_links'] } })).toBe('no links');
  });

  test('JSON is pretty-printed; anything else is left alone', () => {
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('"alpha"\n"beta"')).toBeNull();
    // A stored id is shown as stored, not as the nearest double.
    expect(prettyJson('[12345678901234567890, 0.10]')).toBe('[\n  12345678901234567890,\n  0.10\n]');
    expect(prettyJson('{"a":')).toBeNull();
  });
});

describe('activity charts in people\'s words', () => {
  test('outcome labels are the reasons\' words; 4xx and 5xx say which; a 4xx is never a "server error"', () => {
    const counts = { ok: 13, cancelled: 2, upstream_4xx: 1, upstream_5xx: 3, bad_option: 1 };
    expect(outcomeBars(counts).map((b) => b.label)).toEqual(['ok', 'HTTP 5xx from the site', 'cancelled', 'HTTP 4xx from the site', 'bad URL or option']);
    expect(reasonBars(counts).map((b) => [b.label, b.value])).toEqual([['HTTP error', 4], ['cancelled', 2], ['bad URL or option', 1]]);
    expect(JSON.stringify([outcomeBars(counts), reasonBars(counts)])).not.toMatch(/server error|upstream_|bad_option/);
    // Jobs by outcome say what the job list's badges say.
    expect(outcomeBars({ done: 3, partial: 2, failed: 1, cancelled: 0 }).map((b) => b.label)).toEqual(['done', 'partly failed', 'failed', 'cancelled']);
  });
});

describe('PDF pages in the result view', () => {
  test('the text is cut where each page starts, and the pieces joined are the text unchanged', () => {
    const text = 'one a\none b\n\ntwo a\n\nthree a\nthree b';
    const segs = pageSegments(text, [[1, 1], [2, 4], [3, 6]]);
    expect(segs).toEqual([
      { page: 1, text: 'one a\none b\n\n' },
      { page: 2, text: 'two a\n\n' },
      { page: 3, text: 'three a\nthree b' },
    ]);
    expect(segs?.map((s) => s.text).join('')).toBe(text);
  });
  test('an empty page gives way to the next on the same line; lines before the first page have none', () => {
    expect(pageSegments('a\nb', [[1, 1], [2, 1]])).toEqual([{ page: 2, text: 'a\nb' }]);
    expect(pageSegments('lead\nx', [[4, 2]])).toEqual([
      { page: null, text: 'lead\n' },
      { page: 4, text: 'x' },
    ]);
    // A page past the shown text (the view shows the first MB) is left out.
    expect(pageSegments('a\nb', [[1, 1], [2, 9]])).toEqual([{ page: 1, text: 'a\nb' }]);
  });
  test('a result without pages, or with malformed ones, is shown as one text', () => {
    expect(pageSegments('a', undefined)).toBeNull();
    expect(pageSegments('a', [])).toBeNull();
    expect(pageSegments('a', [[1, 'x']])).toBeNull();
    expect(pageSegments('a', 'nope')).toBeNull();
  });
});

describe('notices', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  // The view slice alone, as the app's store holds it.
  const viewStore = () => createStore<ViewSlice>()((set, get, api) => createViewSlice(set as never, get as () => State, api as never));
  const messages = (s: ViewSlice) => s.notices.map((n) => n.message);

  test('an info notice leaves INFO_MS after it came, however many come after it; an error stays', () => {
    vi.useFakeTimers();
    const store = viewStore();
    store.getState().notify('info', { message: 'first' });
    store.getState().notify('error', { message: 'broken' });
    vi.advanceTimersByTime(INFO_MS - 1000);
    store.getState().notify('info', { message: 'second' });
    vi.advanceTimersByTime(1000);
    expect(messages(store.getState())).toEqual(['broken', 'second']);
    vi.advanceTimersByTime(INFO_MS - 1000);
    expect(messages(store.getState())).toEqual(['broken']);
    vi.advanceTimersByTime(60_000);
    expect(messages(store.getState())).toEqual(['broken']);
  });

  test('five at most, the newest', () => {
    vi.useFakeTimers();
    const store = viewStore();
    for (let i = 1; i <= 7; i++) store.getState().notify('error', { message: `e${i}` });
    expect(messages(store.getState())).toEqual(['e3', 'e4', 'e5', 'e6', 'e7']);
  });
});

describe('the open result’s highlight follows the search box', () => {
  const searchStore = () => createStore<SearchSlice>()((set, get, api) => createSearchSlice(set as never, get as () => State, api as never));
  const hit = (idx: number, snippet: string, word: string, line: number): SearchHit => {
    const at = snippet.indexOf(word);
    return { jobId: 'job1', idx, url: `https://example.org/${idx}`, title: `T${idx}`, score: 1, field: 'body', snippet, marks: [[at, at + word.length]], line };
  };

  test('at the new query’s match when the result is among its hits, else none', () => {
    const store = searchStore();
    const report = hit(1, 'In the last quarter net revenue rose', 'net revenue', 83);
    store.getState().setFocus(focusOfHit(report));
    expect(store.getState().focus).toEqual({ jobId: 'job1', idx: 1, needle: 'net revenue', line: 83 });
    // "revenue": the same result matches on another line; its highlight moves there.
    store.getState().setSearchHits('job', 'revenue', [hit(2, 'Revenue stayed flat', 'Revenue', 3), hit(1, 'Revenue was reported', 'Revenue', 12)], false);
    expect(store.getState().focus).toEqual({ jobId: 'job1', idx: 1, needle: 'Revenue', line: 12 });
    // A query the result does not match, a failed query, or a cleared box: no highlight.
    store.getState().setSearchHits('job', 'costs', [hit(2, 'costs fell', 'costs', 4)], false);
    expect(store.getState().focus).toBeNull();
    for (const end of [
      () => store.getState().setSearchError('job', 'x', { code: 'query_too_long', message: 'too long', hint: '' }),
      () => store.getState().clearSearch('job'),
    ]) {
      store.getState().setFocus(focusOfHit(report));
      end();
      expect(store.getState().focus).toBeNull();
    }
  });
});

describe('a deleted or expired job leaves the search boxes', () => {
  const searchStore = () => createStore<SearchSlice>()((set, get, api) => createSearchSlice(set as never, get as () => State, api as never));
  const hit = (jobId: string, idx: number, sameIn?: { jobId: string; idx: number }[]): SearchHit => ({
    jobId, idx, url: `https://example.org/${idx}`, title: `T${idx}`, score: 1, field: 'body', snippet: 'net revenue rose', marks: [[0, 11]], line: 4, ...(sameIn ? { sameIn } : {}),
  });

  test('its hits go; one that older jobs stored alike becomes the newest copy’s; its highlight and answers go', () => {
    const store = searchStore();
    store.getState().setSearchQuery('all', 'revenue', null);
    store.getState().setSearchHits('all', 'revenue', [hit('new', 0, [{ jobId: 'mid', idx: 2 }, { jobId: 'old', idx: 0 }]), hit('new', 1), hit('other', 3, [{ jobId: 'new', idx: 3 }])], false);
    store.getState().setSearchQuery('job', 'revenue', 'new');
    store.getState().setSearchHits('job', 'revenue', [hit('new', 1)], false);
    store.getState().setFocus(focusOfHit(hit('new', 1)));
    store.getState().setAsk({ jobId: 'new', question: 'q', passages: [], scope: null, loading: false, error: null, asked: 'q' });

    store.getState().dropJob('new');
    const s = store.getState();
    expect(s.searchBoxes.all.hits.map((h) => [h.jobId, h.idx, h.sameIn])).toEqual([
      ['mid', 2, [{ jobId: 'old', idx: 0 }]],
      ['other', 3, undefined],
    ]);
    expect(s.searchBoxes.all.query).toBe('revenue');
    expect(s.searchBoxes.job).toMatchObject({ query: '', hits: [] });
    expect(s.focus).toBeNull();
    expect(s.ask).toBeNull();

    // Another job's deletion leaves what it does not touch as it was.
    const before = store.getState().searchBoxes;
    store.getState().dropJob('elsewhere');
    expect(store.getState().searchBoxes.all).toBe(before.all);
  });
});

describe('a long text shown in part', () => {
  const lines = (n: number, width: number): string => Array.from({ length: n }, (_, i) => `${i + 1}`.padEnd(width, '.')).join('\n');
  test('the first MiB, unless a hit is past it: then as much around its line, from a line start', () => {
    const t = lines(40_000, 49); // 2,000,000 characters, 50 a line
    expect(shownPart('short\ntext', 2)).toEqual({ text: 'short\ntext', from: 0, firstLine: 1 });
    expect(shownPart(t)).toMatchObject({ from: 0, firstLine: 1 });
    expect(shownPart(t).text).toHaveLength(MAX_SHOWN_TEXT);
    expect(shownPart(t, 100)).toMatchObject({ from: 0, firstLine: 1 });
    const part = shownPart(t, 30_000);
    expect(part.from).toBeGreaterThan(0);
    expect(t[part.from - 1]).toBe('\n');
    expect(part.text.startsWith(`${part.firstLine}.`)).toBe(true);
    // The hit's line is in the part, about halfway.
    const at = part.text.indexOf('\n30000.') + 1;
    expect(at).toBeGreaterThan(MAX_SHOWN_TEXT / 2 - 100);
    expect(at).toBeLessThan(MAX_SHOWN_TEXT / 2 + 100);
  });
  test("a PDF's pages counted from the part's first line, the page under way starting it", () => {
    expect(pageLinesFrom([[1, 1], [2, 10], [3, 20]], 1)).toEqual([[1, 1], [2, 10], [3, 20]]);
    expect(pageLinesFrom([[1, 1], [2, 10], [3, 20]], 15)).toEqual([[2, 1], [3, 6]]);
    expect(pageLinesFrom([[1, 1], [2, 10], [3, 20]], 10)).toEqual([[2, 1], [3, 11]]);
    expect(pageLinesFrom([[2, 10]], 5)).toEqual([[2, 6]]);
  });
});
