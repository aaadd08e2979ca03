import type { StateCreator } from 'zustand';
import type { Options, Result } from '../../../shared/types';
import { MODE_NOTES } from '../../../shared/types';
import type { ComposerList } from '../lib/packed-list';
import { formatOptionsLine, optionsConflict, tooLongOption, type ListFormat, type ListProblem } from '../../../shared/urllist';
import type { UserError } from '../lib/errors';
import type { State } from './index';

/** Where the list came from: a file (dropped or opened, or fetched from an address) or the paste box. */
export interface ListSource {
  kind: 'file' | 'paste';
  name: string;
  text: string;
  mimeType?: string;
  /** A list fetched from an address: the file name its address ends in (for the format) and what its relative links resolve against. */
  filename?: string;
  base?: string;
  /** A paste too long for the box: shown as a summary (PasteBox), its text never put in the textarea. */
  held?: boolean;
  /**
   * A file read in the worker: its bytes, and its length in characters (0: only white space).
   * Its text is then kept only when short enough for the draft, so 50 MB never sits on the window's thread.
   */
  bytes?: number;
  chars?: number;
}

/** A dropped (or opened) file being read in the worker (loadFile): its bytes read so far, of its size. */
export interface FileReading {
  name: string;
  read: number;
  total: number;
  /** Chosen in Open list… rather than dropped: the words say to open it again. */
  opened: boolean;
}

/** The list at the one address in the composer being fetched, when the user asks (main's readListAt). */
export interface ListAtReading {
  token: string;
  url: string;
  /** `empty`: the answer came, and no URL was found in it. */
  state: 'reading' | 'stopping' | 'stopped' | 'failed' | 'empty';
  error?: UserError;
  /** For `empty`: what the answer was read as. */
  format?: string;
}

/** A sitemap index of the composer's list being read for its pages (main's readSitemapIndex). */
export interface SitemapReading {
  token: string;
  /**
   * What the list was: a sitemap index (read at once), sitemaps' addresses, or an OPML
   * outline's feeds (both read when asked). The feeds' entries are read as a sitemap's pages.
   */
  kind: 'index' | 'sitemaps' | 'feeds';
  /** The index's own entries: the sitemaps it names. */
  sitemaps: number;
  state: 'reading' | 'stopping' | 'read' | 'stopped' | 'failed';
  /** Sitemaps read of those known so far (a nested index adds to total), and the pages found. */
  done: number;
  total: number;
  pages: number;
  /** Once read: sitemaps read, those that gave no page (the first ones shown), those not read. */
  read?: number;
  failures?: ListProblem[];
  failureCount?: number;
  skipped?: number;
  /** The job's URL cap, when reading stopped once the pages passed it. */
  capped?: number;
  error?: UserError;
}

export interface ComposerSlice {
  source: ListSource | null;
  parsed: ComposerList | null;
  parsing: boolean;
  /** Options for the whole list; a URL's own options (from the list) win. */
  listOptions: Options;
  /** listOptions are the last job's, carried over untouched: the composer says so beside Fetch (CarriedOptions). */
  optionsCarried: boolean;
  /** Index into parsed.targets of the row the preview fetches. */
  previewIdx: number;
  preview: { url: string; result: Result; bytes: number } | null;
  previewLoading: boolean;
  previewError: UserError | null;
  /** An error about the list options (checkOptions), shown by the form. */
  optionsError: UserError | null;
  /** The options optionsError is about: the form marks their fields invalid and ties the error to them. */
  optionsErrorFields: readonly (keyof Options)[];
  /** The error stopped a submit: the form moves the focus to its first field, once. */
  optionsErrorFocus: boolean;
  submitting: boolean;
  submitError: UserError | null;
  sitemaps: SitemapReading | null;
  listAt: ListAtReading | null;
  fileReading: FileReading | null;

  setSource(source: ListSource | null): void;
  setParsed(parsed: ComposerList | null): void;
  setParsing(parsing: boolean): void;
  setListOptions(patch: Partial<Options>): void;
  /** Back to no options: the defaults of every field. */
  clearListOptions(): void;
  setPreviewIdx(idx: number): void;
  setPreview(p: ComposerSlice['preview']): void;
  setPreviewLoading(v: boolean): void;
  setPreviewError(e: UserError | null): void;
  setOptionsError(e: UserError | null, fields?: readonly (keyof Options)[], focus?: boolean): void;
  /** The form has moved the focus to the field of the error that stopped a submit. */
  optionsErrorFocused(): void;
  setSubmitting(v: boolean): void;
  setSubmitError(e: UserError | null): void;
  startSitemaps(reading: SitemapReading): void;
  /** Changes the reading with this token; a newer reading, or none, ignores it. */
  setSitemaps(token: string, patch: Partial<SitemapReading>): void;
  startListAt(reading: ListAtReading): void;
  /** Changes the reading with this token; a newer reading, or none, ignores it. */
  setListAt(token: string, patch: Partial<ListAtReading>): void;
  setFileReading(reading: FileReading | null): void;
  resetComposer(): void;
}

/** Drops empty values so `{grep: ''}` does not ride along and change the job's identity. */
export function cleanOptions(o: Options): Options {
  const out: Options = {};
  for (const [k, v] of Object.entries(o) as [keyof Options, Options[keyof Options]][]) {
    if (v === undefined || v === '' || v === false) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** What each option of the form is called where its length is said. */
const OPTION_FIELDS: Partial<Record<keyof Options, { name: string; shorten: string }>> = {
  question: { name: 'question', shorten: 'Ask it in fewer words: passages are ranked on the words that say what you ask.' },
  grep: { name: 'grep expression', shorten: 'Shorten it: an alternation of many words (a|b|c…) is often one pattern, or several lists run one after another.' },
  jq: { name: 'jq program', shorten: 'Shorten it: define what repeats once (def f: …;), or select the records before the steps that shape them.' },
  pages: { name: 'page selection', shorten: 'Shorten it: ranges such as 1-40 stand for many pages.' },
};

/**
 * The list's option that is longer than Sift takes, said of the field with what to do. main's
 * request check refused it in zod's words, with "restart the window": a question pasted from
 * a document of 2,399 characters read as a broken app.
 */
export function tooLongError(o: Options): UserError | null {
  const long = tooLongOption(o);
  if (!long) return null;
  const field = OPTION_FIELDS[long.key];
  const n = (v: number) => v.toLocaleString('en-US');
  return {
    code: 'bad_option',
    message: `The ${field?.name ?? long.key} is ${n(long.length)} characters long; Sift takes at most ${n(long.max)}.`,
    hint: field?.shorten ?? 'Shorten it.',
  };
}

/**
 * Options that ask for different results (optionsConflict), said of the form's fields: a jq
 * program with Extract set to raw gave jq's output and no word that raw was not honoured.
 */
export function conflictError(o: Options): UserError | null {
  const c = optionsConflict(o);
  if (!c) return null;
  const what = c.key === 'jq' ? 'A jq program' : 'A question';
  return {
    code: 'bad_option',
    message: `${what} does not go with Extract set to ${c.mode}: ${c.why}.`,
    hint:
      c.key === 'jq'
        ? `Set Extract to markdown for jq's output as JSON, or text for its strings unquoted; or clear the jq program for ${MODE_NOTES[c.mode]}.`
        : `Set Extract to markdown or text to rank passages; or clear the question for ${MODE_NOTES[c.mode]}.`,
  };
}

/** What the form can say of its options without asking main: one too long, or two that conflict. */
export const formOptionsError = (o: Options): UserError | null => tooLongError(o) ?? conflictError(o);

/** The fields formOptionsError is about, for the form to mark. */
export function formOptionsFields(o: Options): (keyof Options)[] {
  const long = tooLongOption(o);
  if (long) return [long.key];
  const c = optionsConflict(o);
  return c ? [c.key, 'mode'] : [];
}

/** A URL's options as submitted: the list's, then its own on top. */
export function effectiveOptions(listOptions: Options, own: Options | undefined): Options | undefined {
  const merged = cleanOptions({ ...listOptions, ...own });
  return Object.keys(merged).length ? merged : undefined;
}

/** A dropped or opened file with nothing in it but white space (an empty bookmarks export). */
export function isEmptyFile(source: ListSource | null): source is ListSource {
  return source?.kind === 'file' && !source.chars && !source.text.trim();
}

/**
 * What Sift looked for in a list where it read no URL and no line it could not read (a saved
 * page without links, a Markdown note, an empty JSON array or sitemap, only comments): the
 * counts said 0 and 0, and nothing said why.
 */
export function nothingFound(format: ListFormat): string {
  switch (format) {
    case 'html':
      return 'The page has no links in it.';
    case 'markdown':
      return 'It has no links and no bare web addresses in it.';
    case 'json':
      return 'It holds no URLs: Sift reads an array of URL strings or of {"url": …} objects.';
    case 'xml':
      return 'The sitemap or feed lists no pages.';
    case 'csv':
    case 'tsv':
      return 'It has no row with a URL in it.';
    default:
      return 'It has only blank lines and # comments.';
  }
}

/**
 * Why Submit has nothing to send. A dropped empty file was told "There is no list yet. Drop
 * a file…" with the file's name on screen: it names the file and says it is empty.
 */
export function noTargetsError(source: ListSource | null, parsed: ComposerList | null): UserError {
  if (isEmptyFile(source)) {
    return { code: 'no_targets', message: `${source.name} is empty.`, hint: 'Drop or open a list that has URLs in it, or paste URLs instead.' };
  }
  if (parsed && parsed.invalidCount === 0) {
    return { code: 'no_targets', message: 'Sift found no URL in this list.', hint: `${nothingFound(parsed.format)} Drop or paste a list of http:// or https:// addresses.` };
  }
  if (parsed) {
    return {
      code: 'no_targets',
      message: 'Nothing in this list is a URL Sift can fetch.',
      // The list is beside or above the Fetch button, never below it.
      hint: `Each entry needs an absolute http:// or https:// address: the ${parsed.invalidCount === 1 ? 'line' : `${parsed.invalidCount.toLocaleString()} lines`} Sift could not read ${parsed.invalidCount === 1 ? 'is' : 'are'} listed under “Invalid”, with why.`,
    };
  }
  return { code: 'no_targets', message: 'There is no list yet.', hint: 'Drop a file, paste URLs or open a list first.' };
}

/**
 * Why a list cut short is not submitted: the parser stopped reading it, and a job of its
 * first part would end "done" with the rest never fetched, nothing saying so (the CLI
 * refuses such a list too).
 */
export function truncatedListError(read: number): UserError {
  return {
    code: 'list_too_long',
    message: `The list is longer than Sift reads at once: only its first ${read.toLocaleString()} URLs were read, so none of it was submitted.`,
    hint: 'Split it into smaller lists and submit each; one job holds at most the "URLs per job" set in Settings.',
  };
}

const EMPTY = {
  source: null,
  parsed: null,
  parsing: false,
  previewIdx: 0,
  preview: null,
  previewLoading: false,
  previewError: null,
  optionsError: null,
  optionsErrorFields: [],
  optionsErrorFocus: false,
  submitting: false,
  submitError: null,
  sitemaps: null,
  listAt: null,
  fileReading: null,
} as const;

/** Options as a list's line writes them (grep="…" context), on one line. */
export const shownOptions = (options: Options): string => formatOptionsLine({ url: '', options }).trim();

export const createComposerSlice: StateCreator<State, [], [], ComposerSlice> = (set) => ({
  ...EMPTY,
  listOptions: {},
  optionsCarried: false,
  setSource: (source) => set({ source, submitError: null, sitemaps: null, listAt: null }),
  setParsed: (parsed) => set({ parsed, parsing: false, previewIdx: 0 }),
  setParsing: (parsing) => set({ parsing }),
  // A preview's error is of the options it ran with: kept, "the question is 2,399 characters
  // long" stayed under the panel once the question was short.
  // An option changed by hand makes them all this list's: the user is looking at them.
  setListOptions: (patch) => set((s) => ({ listOptions: { ...s.listOptions, ...patch }, optionsCarried: false, optionsError: null, optionsErrorFields: [], optionsErrorFocus: false, submitError: null, previewError: null })),
  setPreviewIdx: (previewIdx) => set({ previewIdx }),
  setPreview: (preview) => set({ preview, previewLoading: false, previewError: null }),
  setPreviewLoading: (previewLoading) => set({ previewLoading }),
  setPreviewError: (previewError) => set({ previewError, previewLoading: false }),
  // A check answered while the focus is still to move (the field's own, on leaving it) leaves that to happen.
  setOptionsError: (optionsError, fields = [], focus) => set((s) => ({ optionsError, optionsErrorFields: optionsError ? fields : [], optionsErrorFocus: !!optionsError && (focus ?? s.optionsErrorFocus) })),
  optionsErrorFocused: () => set({ optionsErrorFocus: false }),
  setSubmitting: (submitting) => set({ submitting }),
  setSubmitError: (submitError) => set({ submitError, submitting: false }),
  startSitemaps: (sitemaps) => set({ sitemaps }),
  setSitemaps: (token, patch) => set((s) => (s.sitemaps?.token === token ? { sitemaps: { ...s.sitemaps, ...patch } } : {})),
  startListAt: (listAt) => set({ listAt }),
  setListAt: (token, patch) => set((s) => (s.listAt?.token === token ? { listAt: { ...s.listAt, ...patch } } : {})),
  setFileReading: (fileReading) => set({ fileReading }),
  clearListOptions: () => set({ listOptions: {}, optionsCarried: false, optionsError: null, optionsErrorFields: [], optionsErrorFocus: false, submitError: null, previewError: null }),
  // Kept for the next list (a user fetching list after list with one grep), and said there.
  resetComposer: () => set((s) => ({ ...EMPTY, optionsCarried: Object.keys(cleanOptions(s.listOptions)).length > 0 })),
});
