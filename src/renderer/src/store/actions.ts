/**
 * Everything that talks to main. Each action reads and writes the store through getState,
 * so components, keyboard shortcuts and IPC events all go through the same functions.
 */
import { FIRST_ROWS, MAX_LABEL, ROWS_PER_PAGE, type ExportFormatName, type Res } from '../../../shared/ipc/contract';
import { cutText, withoutBidiControls } from '../../../shared/shown';
import { isTerminal, type Job, type Options, type RowFilter, type Target } from '../../../shared/types';
import { failedAs, type Reason } from '../../../shared/reasons';
import { toUserError, type UserError } from '../lib/errors';
import { parseInWorker, readFileInWorker, type ListFile } from '../lib/parse';
import { MAX_LIST_BYTES, notAList, unreadableList } from '../../../shared/urllist';
import { ComposerList } from '../lib/packed-list';
import { formatCreated } from '../lib/format';
import { formatBytes } from '../../../shared/bytes';
import { counted } from '../../../shared/count';
import { cleanOptions, effectiveOptions, noTargetsError, formOptionsError, formOptionsFields, truncatedListError, type ListSource } from './composer';
import { useStore } from './index';
import { resultsStored } from './search-actions';
import { isFiltered, rowsComplete } from './detail';
import { MAX_DRAFT_CHARS } from './draft';

const get = useStore.getState;

let unsubscribe: (() => void) | null = null;

/** Subscribes to main's events once and loads the job list; the views never poll. */
export function startSync(): () => void {
  if (unsubscribe) return unsubscribe;
  const offs = [
    window.sift.on('jobChanged', (job) => get().applyJob(job)),
    window.sift.on('targetsChanged', ({ jobId, rows, was }) => {
      get().applyRows(jobId, rows, was);
      if (rows.some((r) => r.status === 'done')) resultsStored(jobId);
    }),
    window.sift.on('jobRemoved', ({ id }) => {
      get().removeJob(id);
      get().dropJob(id);
      if (get().detailJobId === id) get().clearDetail();
    }),
    window.sift.on('exportProgress', ({ token, done, total }) => get().exportProgressed(token, done, total)),
    window.sift.on('sitemapProgress', ({ token, done, total, pages }) => get().setSitemaps(token, { done, total, pages })),
    followFilter(),
  ];
  // Subscribe first, then load: a change that lands between the two is then not lost
  // (the store keeps whichever copy is newer).
  void loadJobs();
  void tellSettingsNote();
  const view = get().view;
  if (view.kind === 'job') void openJob(view.id);
  unsubscribe = () => {
    for (const off of offs) off();
    unsubscribe = null;
  };
  return unsubscribe;
}

/** A settings.json main could not use at start: an error notice, which stays until dismissed. */
async function tellSettingsNote(): Promise<void> {
  try {
    const { settingsNote } = await window.sift.appInfo();
    if (settingsNote) get().notify('error', { code: 'settings_reset', ...settingsNote });
  } catch (err) {
    get().notify('error', toUserError(err));
  }
}

export async function loadJobs(): Promise<void> {
  try {
    const { jobs, unlisted } = await window.sift.listJobs();
    get().setJobs(jobs, unlisted);
  } catch (err) {
    get().notify('error', toUserError(err));
  }
}

export function showJob(id: string): void {
  get().setView({ kind: 'job', id });
  void openJob(id);
}

/** Counts the job views opened, so the pages still coming for one the user left are dropped. */
let opened = 0;

/**
 * Loads a job's rows, the first page then the rest, page by page; events that arrive
 * meanwhile are kept and applied over the pages they concern.
 */
export async function openJob(id: string): Promise<void> {
  const view = ++opened;
  get().beginDetail(id);
  try {
    const { job, targets, rest, restRun } = await window.sift.jobDetail({ id, limit: FIRST_ROWS });
    if (view !== opened) return;
    get().applyJob(job);
    get().setDetail(id, targets, job.targetsTotal, rest, restRun);
    for (let from = targets.length; from < job.targetsTotal; ) {
      const page = await window.sift.jobDetail({ id, from, limit: ROWS_PER_PAGE });
      if (view !== opened || page.targets.length === 0) return;
      get().addRows(id, page.targets, page.rest);
      from += page.targets.length;
    }
  } catch (err) {
    if (view === opened) get().setDetailError(id, toUserError(err));
  }
}

/** Counts the filter reads started: one whose filter or job changed since stops. */
let matchReads = 0;

const filterOf = (s: ReturnType<typeof get>): RowFilter => ({ status: s.filterStatus, reason: s.filterReason, warning: s.filterWarning });

/**
 * Reads the rows the table's filter shows beyond the rows read, from the store, a page of
 * matches at a time: a big job's matches in its later pages were listed only when paging
 * reached them (the timeouts of a 100,000-row job after 7.7 s; their own query takes ~25 ms).
 */
export async function readMatches(): Promise<void> {
  const run = ++matchReads;
  const at = get();
  const id = at.detailJobId;
  if (!id || !at.rowsLoaded || rowsComplete(at) || !isFiltered(at)) return;
  const filter = filterOf(at);
  try {
    for (let from = at.rows.length; ; ) {
      const { targets } = await window.sift.jobDetail({ id, from, limit: ROWS_PER_PAGE, filter });
      if (run !== matchReads) return;
      get().addAhead(id, targets);
      const now = get();
      if (targets.length < ROWS_PER_PAGE || rowsComplete(now)) return;
      from = Math.max(targets.at(-1)!.idx + 1, now.rows.length);
    }
  } catch (err) {
    // The pages still list the matches as they come; only a job still on screen is told of.
    if (run === matchReads && get().detailJobId === id) get().notify('error', toUserError(err));
  }
}

/** Reads a filter's matches whenever the filter changes, or the first page of a job filtered before it came is in. */
export function followFilter(): () => void {
  return useStore.subscribe((s, was) => {
    const changed = s.filterStatus !== was.filterStatus || s.filterReason !== was.filterReason || s.filterWarning !== was.filterWarning;
    if (changed || (s.rowsLoaded && !was.rowsLoaded)) void readMatches();
  });
}

export async function openResult(idx: number): Promise<void> {
  const jobId = get().detailJobId;
  if (!jobId) return;
  get().selectRow(idx);
  get().setResultLoading(true);
  // A search hit's line: past the part the pane shows first, main sends the part around it.
  // Its words too: on a line too long to show whole, main sends the window around them.
  const focus = get().focus;
  const at = focus && focus.jobId === jobId && focus.idx === idx ? focus : undefined;
  try {
    const status = await window.sift.targetResult(at === undefined ? { id: jobId, idx } : { id: jobId, idx, line: at.line, needle: at.needle.slice(0, 200) });
    get().setResult(jobId, idx, status);
  } catch (err) {
    get().setResultError(toUserError(err));
  }
}

/** A result's whole content, for Copy: the pane was sent only the part it shows. */
export async function wholeResult(jobId: string, idx: number): Promise<string> {
  const status = await window.sift.targetResult({ id: jobId, idx, whole: true });
  return status.result?.content ?? '';
}

export async function cancelJob(id: string): Promise<void> {
  try {
    const { cancelled } = await window.sift.cancelJob({ id });
    if (!cancelled) get().notify('info', { message: 'The job had already finished.' });
  } catch (err) {
    get().notify('error', toUserError(err));
  }
}

export async function deleteJob(id: string): Promise<void> {
  // Its neighbours, read before the jobRemoved event can take it out of the list.
  const order = get().jobOrder;
  const at = order.indexOf(id);
  const neighbours = at < 0 ? [] : [order[at + 1], order[at - 1]];
  try {
    await window.sift.deleteJob({ id });
    // The jobRemoved event does this too; doing it now keeps the click from feeling slow.
    get().removeJob(id);
    get().dropJob(id);
    if (get().detailJobId === id) get().clearDetail();
    // Only the view of the deleted job moves on: one the user opened meanwhile stays.
    const view = get().view;
    if (view.kind !== 'job' || view.id !== id) return;
    // The next older job, as a mail client shows the next message: it showed the newest, so
    // someone clearing out old jobs from the end of a long list was sent to its top each time.
    const next = neighbours.find((n) => n !== undefined && get().jobs[n]) ?? get().jobOrder[0];
    if (next) showJob(next);
    else get().setView({ kind: 'compose' });
  } catch (err) {
    get().notify('error', toUserError(err));
  }
}

/**
 * The jobs whose run-again is on its way to main: a second click (a double-click, a key
 * held down) before the new job shows is dropped here. Main reuses a live job of the same
 * targets too; this spares the second notice.
 */
const rerunning = new Set<string>();

async function rerun(id: string, submit: () => Promise<{ id: string; reused: boolean; targets: number }>, started: (targets: number) => string): Promise<void> {
  if (rerunning.has(id)) return;
  rerunning.add(id);
  try {
    const res = await submit();
    get().notify('info', { message: res.reused ? 'That job is already running; showing it.' : started(res.targets) });
    showJob(res.id);
  } catch (err) {
    get().notify('error', toUserError(err));
  } finally {
    rerunning.delete(id);
  }
}

export function runRest(id: string, which: 'unfinished' | 'failed' | 'all' = 'unfinished'): Promise<void> {
  return rerun(
    id,
    () => window.sift.runRest({ id, which }),
    (n) => `Started a new job with ${counted(n, 'target')}.`,
  );
}

/**
 * "Retry these": a fresh job of the targets that failed for one reason, with the options
 * the user chose for the retry (recover on, and rendering once issue 13 adds it) laid over
 * each target's own. `label`: the words the header's chip counted them under.
 */
export function retryReason(id: string, reason: Reason, options: Options, label: string): Promise<void> {
  return rerun(
    id,
    () => window.sift.runRest({ id, which: 'failed', reason, options }),
    (n) => `Started a new job with ${counted(n, 'target')} ${failedAs(label)}.`,
  );
}

/** Reads a dropped, opened or pasted list into the composer (parsed in the worker). */
export async function loadSource(source: ListSource | null): Promise<void> {
  // Typing not yet parsed would otherwise replace this source once its pause ends.
  cancelPaste();
  get().setSource(source);
  if (!source || !source.text.trim()) {
    get().setParsed(null);
    return;
  }
  get().setParsing(true);
  await readingList(
    (async () => {
      const filename = source.filename ?? (source.kind === 'file' ? source.name : undefined);
      const parsed = await parseInWorker(source.text, { filename, mimeType: source.mimeType, baseUrl: source.base });
      // null: a newer source replaced this one while it was parsing. A dropped file read in its
      // own worker (loadFile) replaces it too: typing parsed after its pause, on a busy machine
      // slower than the file's reading, put the typed list back over the dropped one.
      const now = get().source;
      if (!parsed || now?.kind !== source.kind || now.text !== source.text) return;
      get().setParsed(parsed);
      // Its entries are sitemaps: the pages they list are the list (fetched by main).
      if (parsed.sitemapIndex) void readSitemaps();
    })(),
  );
}

/** The file being read in its worker: Cancel, or a newer drop or open, ends it. */
let fileRead: { cancel(): void } | null = null;

/**
 * Reads a dropped (or opened) file into the composer: its bytes, their decoding and the parse all in a
 * worker, the composer saying how far it is. The list there before stays until this one is
 * read; a file that is no list is said in a notice and changes nothing. The caller marks it
 * readingList, so a Submit meanwhile waits for the list on screen.
 */
export async function loadFile(file: ListFile): Promise<void> {
  const { notify } = get();
  if (file.size > MAX_LIST_BYTES) {
    notify('error', { code: 'too_large', message: `${file.name} is ${formatBytes(file.size)}, too big for a list.`, hint: `Lists up to ${formatBytes(MAX_LIST_BYTES)} can be read.` });
    return;
  }
  fileRead?.cancel();
  const reading = { name: file.name, read: 0, total: file.size, opened: !(file instanceof File) };
  const again = reading.opened ? 'open it again' : 'drop it again';
  get().setFileReading(reading);
  const mimeType = file.type || undefined;
  const job = readFileInWorker(file, { maxBytes: MAX_LIST_BYTES, keepChars: MAX_DRAFT_CHARS, opts: { filename: file.name, mimeType } }, (read) => {
    if (fileRead === job) get().setFileReading({ ...reading, read });
  });
  fileRead = job;
  const r = await job.read;
  // null: cancelled, by the user (who was told) or by a newer drop.
  if (fileRead !== job || !r) return;
  fileRead = null;
  get().setFileReading(null);
  if (!r.ok) {
    if (r.code === 'unreadable') notify('error', { code: 'unreadable', ...unreadableList(file.name) });
    else if (r.code === 'reader_failed')
      notify('error', { code: 'unreadable', message: `Sift could not finish reading ${file.name}.`, hint: `Reading it stopped unexpectedly, perhaps for lack of memory: ${again}, or restart Sift first if it stops again.` });
    else notify('error', { code: 'not_a_list', ...notAList(file.name, r.kind) });
    return;
  }
  cancelPaste();
  get().setSource({ kind: 'file', name: file.name, text: r.text ?? '', bytes: file.size, chars: r.chars, ...(mimeType && { mimeType }) });
  // The list's first render in a task of its own, not the one that took in the worker's
  // answer: with 100,000 URLs each is a few hundred ms (bench droplist).
  get().setParsing(true);
  await new Promise((resolve) => setTimeout(resolve));
  get().setParsed(r.chars === 0 ? null : r.list);
  if (r.list.sitemapIndex) void readSitemaps();
}

/** Cancel on a file being read: its worker is ended, and the composer keeps what it had. */
export function stopReadingFile(): void {
  const reading = get().fileReading;
  if (!fileRead || !reading) return;
  fileRead.cancel();
  fileRead = null;
  get().setFileReading(null);
  get().notify('info', { message: `Stopped reading ${reading.name}; nothing of it is in the list.`, hint: `${reading.opened ? 'Open' : 'Drop'} it again to read it.` });
}

/** Sitemaps of an index that gave no page, shown in the composer; the rest are counted. */
const SHOWN_SITEMAP_FAILURES = 20;

/**
 * Reads the composer's sitemap index (or its list of sitemaps' addresses, or an OPML outline's
 * feeds, when the user asks): main fetches the sitemaps (or feeds) and the pages they list (a
 * feed's entries) become the list. Submit waits for it, as
 * for any list being read; the list stays as it was if the reading is stopped or finds no page.
 */
export async function readSitemaps(): Promise<void> {
  const index = get().parsed;
  if (!index || index.length === 0) return;
  const token = `sitemaps-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const kind = index.sitemapIndex ? 'index' : index.opml ? 'feeds' : 'sitemaps';
  get().startSitemaps({ token, kind, sitemaps: index.length, state: 'reading', done: 0, total: index.length, pages: 0 });
  await readingList(
    (async () => {
      try {
        const x = await window.sift.readSitemapIndex({ token, sitemaps: index.all().map((t) => ({ url: t.url, line: t.line })) });
        // A newer list (or reading) took the composer meanwhile.
        if (get().sitemaps?.token !== token || get().parsed !== index) return;
        const failures = x.failures.slice(0, SHOWN_SITEMAP_FAILURES).map((f) => ({ line: f.line, text: f.url, reason: f.why }));
        get().setSitemaps(token, { state: 'read', read: x.read, failures, failureCount: x.failures.length, skipped: x.skipped, capped: x.capped ? x.cap : undefined, pages: x.pages.length });
        if (x.pages.length > 0) get().setParsed(ComposerList.of({ format: index.format, targets: x.pages, invalid: [], duplicates: [], truncated: false }));
      } catch (err) {
        get().setSitemaps(token, readingEnded(err));
      }
    })(),
  );
}

export async function stopReadingSitemaps(): Promise<void> {
  await stopReading(get().sitemaps, (token) => get().setSitemaps(token, { state: 'stopping' }), (token) => window.sift.stopReadingSitemaps({ token }));
}

/**
 * Reads the list at the composer's one address (a web page of links, a feed's entries, a
 * sitemap, a list file), as `sift batch URL` does: main fetches it and it becomes the list,
 * as a dropped file would. The address stays the list if the reading is stopped or fails,
 * or if no URL is found in what came back.
 */
export async function readListAt(): Promise<void> {
  const list = get().parsed;
  const url = list?.length === 1 ? list.all()[0]?.url : undefined;
  if (!list || !url) return;
  const token = `list-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  get().startListAt({ token, url, state: 'reading' });
  // A newer list (or reading) took the composer meanwhile.
  const stale = (): boolean => get().listAt?.token !== token || get().parsed !== list;
  await readingList(
    (async () => {
      try {
        const x = await window.sift.readListAt({ token, url });
        if (stale()) return;
        const found = await parseInWorker(x.text, { filename: x.filename, mimeType: x.mimeType, baseUrl: x.base });
        if (!found || stale()) return;
        if (found.length === 0) {
          get().setListAt(token, { state: 'empty', format: found.format });
          return;
        }
        get().setSource({ kind: 'file', name: x.name, text: x.text, mimeType: x.mimeType, filename: x.filename, base: x.base });
        get().setParsed(found);
        if (found.sitemapIndex) void readSitemaps();
      } catch (err) {
        get().setListAt(token, readingEnded(err));
      }
    })(),
  );
}

export async function stopReadingList(): Promise<void> {
  await stopReading(get().listAt, (token) => get().setListAt(token, { state: 'stopping' }), (token) => window.sift.stopReadingList({ token }));
}

/** How a reading that threw ended: stopped when main says it was cancelled, failed otherwise. */
function readingEnded(err: unknown): { state: 'stopped' } | { state: 'failed'; error: UserError } {
  const e = toUserError(err);
  return e.code === 'cancelled' ? { state: 'stopped' } : { state: 'failed', error: e };
}

/** Asks main to stop a reading under way, shown as stopping until its own end comes back. */
async function stopReading(reading: { token: string; state: string } | null, markStopping: (token: string) => void, stop: (token: string) => Promise<unknown>): Promise<void> {
  if (reading?.state !== 'reading') return;
  markStopping(reading.token);
  try {
    await stop(reading.token);
  } catch (err) {
    get().notify('error', toUserError(err));
  }
}

/** Lists being read (a dropped file's bytes, then its parse): a Submit that comes meanwhile waits for them. */
const listsUnderWay = new Set<Promise<unknown>>();

/** Marks `work` as a list being read until it settles; returns it. */
export function readingList<T>(work: Promise<T>): Promise<T> {
  listsUnderWay.add(work);
  const done = (): void => void listsUnderWay.delete(work);
  work.then(done, done);
  return work;
}

// Parse after a short pause in typing, not on every key: a long list takes a moment.
const PASTE_DELAY_MS = 250;
let pasteTimer: ReturnType<typeof setTimeout> | undefined;
/** Reads the paste box; set while typing has not been parsed yet. */
let pendingPaste: (() => string) | null = null;

/**
 * The paste box changed: parse once typing pauses. `read` is called then, not now: reading
 * a 50,000-line box at every key costs for nothing.
 */
export function schedulePaste(read: () => string): void {
  clearTimeout(pasteTimer);
  pendingPaste = read;
  // Shown as "updating…" and it holds Submit back until the list on screen is the one typed.
  if (!get().parsing) get().setParsing(true);
  pasteTimer = setTimeout(() => void flushPaste(), PASTE_DELAY_MS);
}

function cancelPaste(): void {
  clearTimeout(pasteTimer);
  pendingPaste = null;
}

/** What the paste box holds, typed or parsed, for a box made anew (the composer shown again). */
export function pastedText(): string {
  if (pendingPaste) return pendingPaste();
  const { source } = get();
  return source?.kind === 'paste' ? source.text : '';
}

/** What was typed in the paste box and not parsed yet, or null. */
export function typedText(): string | null {
  return pendingPaste ? pendingPaste() : null;
}

/** Parses what was typed now rather than after the pause (Submit right after typing). */
export async function flushPaste(): Promise<void> {
  const read = pendingPaste;
  cancelPaste();
  if (!read) return;
  await loadSource({ kind: 'paste', name: 'pasted', text: read() });
}

/** Puts a held paste in the box to edit: the same list, already parsed, shown as text. */
export function editHeldPaste(): void {
  const { source } = get();
  if (source?.held) get().setSource({ ...source, held: false });
}

/**
 * Open list…: main's dialog, then the chosen file read as a dropped one is. Main sent its whole
 * text before, decoded, and the window copied it to the parse worker: 1.8 s of a frozen window
 * for a 50 MB export (out/qa/s24/droplist.md). Now the worker pulls its bytes a piece at a time.
 */
export async function openListFile(): Promise<void> {
  let chosen: Res<'openListFile'>;
  try {
    chosen = await window.sift.openListFile();
  } catch (err) {
    get().notify('error', toUserError(err));
    return;
  }
  if (chosen) await readingList(loadFile(chosenFile(chosen)));
}

/** The chosen file, its bytes asked of main by the dialog's token a piece at a time, as the worker wants them. */
function chosenFile({ token, name, bytes }: NonNullable<Res<'openListFile'>>): ListFile {
  const pieces = (): ReadableStream<string> => {
    let offset = 0;
    // The next piece is asked for while the worker takes in this one: a round trip to main
    // per MiB took 0.5–2 s over the test bridge at load 12–16 (bench droplist's "open" rows).
    return new ReadableStream<string>({
      async pull(out) {
        const piece = await window.sift.readListFile({ token, offset });
        offset += piece.bytes;
        if (piece.bytes === 0) out.close();
        else out.enqueue(piece.data);
      },
    }, { highWaterMark: 2 });
  };
  return { name, size: bytes, type: '', pieces };
}

function submittedTargets(): Target[] {
  const { parsed, listOptions } = get();
  if (!parsed) return [];
  return parsed.all().map((t) => {
    const options = effectiveOptions(listOptions, t.options);
    return options ? { url: t.url, options } : { url: t.url };
  });
}

/**
 * Checks the list's options with main (pages syntax, regex, jq program) before a job is
 * made of them: a bad grep would otherwise fail every row one by one.
 */
async function checkListOptions(): Promise<boolean> {
  const opts = cleanOptions(get().listOptions);
  const long = formOptionsError(opts);
  if (long) {
    get().setOptionsError(long, formOptionsFields(opts), true);
    return false;
  }
  if (!opts.pages && !opts.grep && !opts.jq) return true;
  try {
    const res = await window.sift.checkOptions({ options: opts });
    if (res.ok) return true;
    get().setOptionsError(res.error ? toUserError(res.error) : { code: 'bad_option', message: 'These options are not valid.', hint: '' }, res.fields, true);
  } catch (err) {
    get().setOptionsError(toUserError(err));
  }
  return false;
}

/** How many distinct programs of the list's own lines are checked: each is a round trip to main of a few ms. */
const LINE_PROGRAMS = 100;

/**
 * A line's own jq program (jq='…' after its URL) is checked before the job is made, as the
 * list's is: one that does not compile fetched its page only to fail its row, on every line
 * that had it. The first such line is named, to be fixed in the list.
 */
async function checkLinePrograms(): Promise<boolean> {
  const { parsed, listOptions } = get();
  if (!parsed) return true;
  const listWide = cleanOptions(listOptions).jq;
  const seen = new Set<string>();
  for (const t of parsed.all()) {
    const jq = t.options?.jq;
    if (jq === undefined || jq.trim() === '' || jq === listWide || seen.has(jq)) continue;
    if (seen.size >= LINE_PROGRAMS) break;
    seen.add(jq);
    try {
      const res = await window.sift.checkOptions({ options: { jq } });
      if (res.ok) continue;
      const e = res.error ? toUserError(res.error) : { code: 'bad_option', message: 'This jq program is not valid.', hint: '' };
      get().setSubmitError({ ...e, message: `Line ${t.line}: ${e.message}` });
    } catch (err) {
      get().setSubmitError(toUserError(err));
    }
    return false;
  }
  return true;
}

export async function submitList(): Promise<void> {
  await flushPaste();
  // A list still being read (a large file just dropped) is submitted once read: the click
  // did nothing, and the button gave no sign of it. A newer drop meanwhile is waited for too.
  while (listsUnderWay.size > 0) await Promise.allSettled([...listsUnderWay]);
  const s = get();
  if (s.submitting || s.parsing) return;
  if (s.parsed?.truncated) {
    s.setSubmitError(truncatedListError(s.parsed.length));
    return;
  }
  const targets = submittedTargets();
  if (targets.length === 0) {
    s.setSubmitError(noTargetsError(s.source, s.parsed));
    return;
  }
  s.setSubmitError(null);
  s.setSubmitting(true);
  if (!(await checkListOptions()) || !(await checkLinePrograms())) {
    get().setSubmitting(false);
    return;
  }
  try {
    // The job list names the job after its list: a dropped or opened file's name, cut to what
    // main takes (a name of 250 characters was refused, and the list not submitted) and without
    // bidi controls, which turned the name's end around in the jobs list and the job's header.
    const label = s.source?.kind === 'file' ? withoutBidiControls(cutText(s.source.name, MAX_LABEL - 2)) : undefined;
    const res = await window.sift.submit(label ? { targets, label } : { targets });
    get().setSubmitting(false);
    if (res.reused) get().notify('info', { message: reusedMessage(get().jobs[res.id]) });
    get().resetComposer();
    showJob(res.id);
  } catch (err) {
    get().setSubmitError(toUserError(err));
  }
}

/**
 * What a reused submit shows: the same list within the jobs' lifetime is the same job (the
 * runner's rule 1), so a finished one's results are from when it ran, and fetching them anew
 * is the job's "Fetch all again".
 */
function reusedMessage(job: Job | undefined): string {
  if (!job || !isTerminal(job.status)) return 'The same list is already a job; showing it.';
  return `The same list ran as this job (${formatCreated(job.createdAt)}); these are its results. Fetch all again gets them anew.`;
}

/** Previews the chosen URL with its options; `render: 'always'` runs its JavaScript first. */
export async function previewTarget(override: Options = {}): Promise<void> {
  const { parsed, previewIdx, listOptions } = get();
  const t = parsed?.at(previewIdx);
  if (!t) return;
  get().setPreviewError(null);
  get().setPreviewLoading(true);
  const options = effectiveOptions({ ...listOptions, ...t.options, ...override }, undefined);
  const long = options && formOptionsError(options);
  if (long) {
    get().setPreviewError(long);
    return;
  }
  try {
    const { bytes, ...result } = await window.sift.preview({ target: options ? { url: t.url, options } : { url: t.url } });
    get().setPreview({ url: t.url, result, bytes });
  } catch (err) {
    get().setPreviewError(toUserError(err));
  }
}

/** Stops the export being written; it ends (exportJob's answer) with nothing written. */
export async function stopExport(token: string): Promise<void> {
  get().exportStopping(token);
  try {
    await window.sift.cancelExport({ token });
  } catch (err) {
    get().notify('error', toUserError(err));
  }
}

export async function exportJob(jobId: string, format: ExportFormatName, includeFailed: boolean, includeMeta: boolean): Promise<void> {
  let target: { token: string; path: string } | null;
  try {
    target = await window.sift.chooseExportTarget({ id: jobId, format });
  } catch (err) {
    get().notify('error', toUserError(err));
    return;
  }
  if (!target) return; // the user closed the dialog
  const { token, path } = target;
  get().startExport({ jobId, token, path, format });
  try {
    const summary = await window.sift.exportJob({ id: jobId, token, format, includeFailed, includeMeta });
    get().exportFinished(token, summary);
  } catch (err) {
    get().exportFailed(token, toUserError(err));
  }
}
