import * as z from 'zod';
import { ReasonSchema } from '../reasons';
import { ErrorInfoSchema } from '../errors';
import { JobSchema, OptionsSchema, ResultSchema, RowFilterSchema, RowGroupSchema, RowOutcomeSchema, TargetRowSchema, TargetSchema, TargetStatusSchema } from '../types';
import { SettingsSchema } from '../settings';
import { MetricsSnapshotSchema } from '../metrics';
import { AskScopeSchema, HitsFormatSchema, JobAnswerSchema, SearchHitSchema, SearchQuerySchema } from '../search';

/**
 * The one table of the IPC surface. Every invoke channel maps a request schema to a
 * response schema; every event names the payload main sends. Main validates each request
 * against this table; the preload and the test bridge expose exactly these names.
 */
const Empty = z.object({}).strict();
const JobId = z.string().min(1).max(64);

/** The longest job label (a list file's name) main takes; Linux allows a name of 255 bytes. */
export const MAX_LABEL = 200;

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  dbPath: z.string(),
  platform: z.string(),
  /** Which host the renderer talks to: 'electron' or 'bridge'. */
  host: z.enum(['electron', 'bridge']),
  /** Why the saved settings were not used at start (a damaged settings.json), for a notice. */
  settingsNote: z.object({ message: z.string(), hint: z.string() }).optional(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

/**
 * Jobs the app lists, newest first: the sidebar is not virtualized, and 1,000 items took a
 * 400 ms task to draw on a 2-core machine. The rest are counted, so the list says so.
 */
export const LISTED_JOBS = 1000;

/**
 * Rows of a job the app reads at once when it opens it, then per page after: the first page
 * fills a screen many times over (34 px rows), so the table shows at once, and each page is
 * small enough that neither side holds its thread long. All 100,000 rows of a job in one
 * answer were 21 MB of JSON, 4.2 s of SQL and 1.2 s of JSON in main, and the table showed
 * after 14-17 s.
 */
export const FIRST_ROWS = 500;
export const ROWS_PER_PAGE = 5_000;

/** Longest list one submit may carry; the runner's own cap (Settings) is usually lower. */
export const MAX_SUBMIT_TARGETS = 100_000;

export const ExportFormatSchema = z.enum(['md', 'txt', 'json', 'jsonl', 'csv', 'combined', 'zip']);
export type ExportFormatName = z.infer<typeof ExportFormatSchema>;

export const ExportSummarySchema = z.object({
  path: z.string(),
  files: z.number(),
  /** Of a zip, the files it holds; `files` is then 1. */
  entries: z.number().optional(),
  targets: z.number(),
  failed: z.number(),
  /** Of the failed, how many never ran (pending, or running when the export read the job). */
  notRun: z.number(),
  /** Of the failed, how many a cancel or a crash stopped mid-way (the job header counts them not fetched). */
  cutShort: z.number(),
  bytes: z.number(),
  /** The job was still running: the notRun targets are still to come. */
  stillRunning: z.boolean().optional(),
  // What it holds, as shared/export-words.ts reads it (ExportTally).
  format: z.enum(['folder', 'zip', 'jsonl', 'csv', 'combined-md']),
  results: z.number(),
  warned: z.number(),
  notDoneEntries: z.number(),
  toCome: z.number(),
  sideFiles: z.array(z.string()).readonly(),
});

/** The browser rendered pages run in (SPEC §5.10), or why there is none and how to get one. */
export const BrowserInfoSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), name: z.string(), path: z.string() }),
  z.object({ ok: z.literal(false), why: z.string(), hint: z.string() }),
]);
export type BrowserInfoView = z.infer<typeof BrowserInfoSchema>;

/**
 * A line of a result longer than the pane lays out in time (MAX_SHOWN_LINE): its number, its
 * length in characters, where the window of it shown starts, and whether that window is
 * around its match (a grep's, a search hit's words) or at its start.
 */
export const LongLineSchema = z.object({ line: z.number().int().min(1), length: z.number().int().min(0), from: z.number().int().min(0), match: z.boolean() });
export type LongLine = z.infer<typeof LongLineSchema>;

/**
 * Of a result longer than the pane shows (MAX_SHOWN_TEXT) or with lines too long to lay out,
 * the part that crossed: `content` holds it, from character `from` (line `firstLine`) of the
 * text as shown (JSON `laidOut` first, long lines cut), of a stored result `length` long;
 * `sized` when it was cut to MAX_SHOWN_TEXT, `lines` the cut lines it holds. Sent whole, a
 * 40 MB result froze the window for ~9 s to show its first MiB.
 */
export const ResultPartSchema = z.object({
  from: z.number().int().min(0),
  firstLine: z.number().int().min(1),
  length: z.number().int().min(0),
  laidOut: z.boolean(),
  sized: z.boolean(),
  lines: z.array(LongLineSchema).optional(),
});
export type ResultPart = z.infer<typeof ResultPartSchema>;

/** The file chosen in Open list…: its name and size, and the token its bytes are read by (readListFile). */
export const ListFileSchema = z.object({ token: z.string(), name: z.string(), bytes: z.number() });

/** readListFile's piece: 1 MiB, as the drop's worker reads a File (a 50 MB list in 48 answers, none a freeze to take in). */
export const LIST_PIECE_BYTES = 1024 * 1024;

export const invokeContract = {
  appInfo: { req: Empty, res: AppInfoSchema },
  /** Submit parsed targets as a new job (or get the live job with the same targets back). */
  submit: {
    req: z
      .object({
        targets: z.array(TargetSchema).max(MAX_SUBMIT_TARGETS),
        /** What the list is called in the job list: the dropped file's name (else the first URL's host). */
        label: z.string().max(MAX_LABEL).optional(),
      })
      .strict(),
    res: z.object({ id: z.string(), reused: z.boolean() }),
  },
  /** The newest LISTED_JOBS jobs, and how many older ones there are besides. */
  listJobs: { req: Empty, res: z.object({ jobs: z.array(JobSchema), unlisted: z.number().int().min(0) }) },
  /**
   * A job with its target rows (no content), all of them or `limit` from idx `from` (a page:
   * 100,000 rows at once are 21 MB of JSON and seconds of work on each side). Showing a job
   * touches its lease. A page comes with `rest`, the rows after it counted by outcome, read
   * with it: the table's filter and chips count the job from the first page on. With `filter`,
   * the rows it shows from idx `from` on (keyset paging by filter), without `rest`: a filter's
   * matches in rows not read yet are listed at once rather than when their pages come.
   * With the first page of an ended job, `restRun`: the job that ran its rest, once one has.
   */
  jobDetail: {
    req: z.object({ id: JobId, from: z.number().int().min(0).optional(), limit: z.number().int().min(1).optional(), filter: RowFilterSchema.optional() }).strict(),
    res: z.object({ job: JobSchema, targets: z.array(TargetRowSchema), rest: z.array(RowGroupSchema).optional(), restRun: z.string().optional() }),
  },
  /**
   * A target with its result: whole when the pane shows it whole or `whole` asks (Copy), else
   * the part the pane shows, around `line` (a search hit's, its words `needle`) when given, with `part` saying so.
   */
  targetResult: {
    req: z
      .object({
        id: JobId,
        idx: z.number().int().min(0).max(MAX_SUBMIT_TARGETS),
        line: z.number().int().min(1).optional(),
        // The hit's words, for where on a long line it lies (a search snippet's marks, a passage's first words: ≤ 80 characters).
        needle: z.string().max(200).optional(),
        whole: z.boolean().optional(),
      })
      .strict(),
    res: TargetStatusSchema.extend({ part: ResultPartSchema.optional() }),
  },
  cancelJob: { req: z.object({ id: JobId }).strict(), res: z.object({ cancelled: z.boolean() }) },
  deleteJob: { req: z.object({ id: JobId }).strict(), res: z.object({ deleted: z.boolean() }) },
  /**
   * A new job with this job's unfinished targets (or its failed ones, or those failed for
   * one reason), each with `options` laid over its own (e.g. recover on; rendering, issue 13).
   */
  runRest: {
    req: z
      .object({
        id: JobId,
        which: z.enum(['unfinished', 'failed', 'all']).default('unfinished'),
        reason: ReasonSchema.optional(),
        options: OptionsSchema.optional(),
      })
      .strict(),
    res: z.object({ id: z.string(), reused: z.boolean(), targets: z.number() }),
  },
  /** Fetch one URL now, as the interactive caller (not a job); `bytes`: its size as a job stores it (UTF-8). */
  preview: { req: z.object({ target: TargetSchema }).strict(), res: ResultSchema.extend({ bytes: z.number().int().min(0) }) },
  /** Check options before submitting (pages syntax, regex, jq program). */
  checkOptions: {
    req: z.object({ options: OptionsSchema }).strict(),
    /** `fields`: the options the error is about, for the form to mark. */
    res: z.object({ ok: z.boolean(), error: ErrorInfoSchema.optional(), fields: z.array(OptionsSchema.keyof()).optional() }),
  },
  getSettings: { req: Empty, res: SettingsSchema },
  setSettings: { req: z.object({ settings: SettingsSchema.partial() }).strict(), res: SettingsSchema },
  metrics: { req: Empty, res: MetricsSnapshotSchema },
  /** The browser that renders pages needing JavaScript, or why none can (for Settings). */
  browserInfo: { req: Empty, res: BrowserInfoSchema },
  /**
   * The system open dialog. The renderer never names a path: it gets a token for the chosen file
   * (the last one chosen only), and reads its bytes by it with readListFile.
   */
  openListFile: { req: Empty, res: ListFileSchema.nullable() },
  /**
   * A piece of the file chosen in openListFile, from `offset`: up to LIST_PIECE_BYTES, base64
   * (JSON carries the bridge's answers); `bytes` 0 at its end. Decoded and parsed in the worker.
   */
  readListFile: {
    req: z.object({ token: z.string().min(1).max(128), offset: z.number().int().min(0) }).strict(),
    res: z.object({ data: z.string(), bytes: z.number().int().min(0) }),
  },
  /**
   * A sitemap index's child sitemaps (or an OPML outline's feeds) fetched and read (the guard,
   * the gate and the download limit of every fetch) for the pages they list (a feed's entries),
   * each with the index's line naming the sitemap that listed it. `token` (the renderer's) names the reading in sitemapProgress and
   * stopReadingSitemaps; a stopped reading ends with the error `cancelled`.
   */
  readSitemapIndex: {
    req: z
      .object({
        token: z.string().min(1).max(128),
        sitemaps: z.array(z.object({ url: z.string().max(8192), line: z.number().int().min(0) }).strict()).min(1).max(MAX_SUBMIT_TARGETS),
      })
      .strict(),
    res: z.object({
      pages: z.array(z.object({ url: z.string(), line: z.number(), options: OptionsSchema.optional() })),
      read: z.number(),
      failures: z.array(z.object({ url: z.string(), line: z.number(), why: z.string() })),
      /** Child sitemaps not read: past the count or depth limit. */
      skipped: z.number(),
      /** Reading stopped at the job's URL cap (Settings: URLs per job), which the pages now pass. */
      capped: z.boolean(),
      cap: z.number(),
    }),
  },
  /**
   * The list at an address (a web page of links, a feed, a sitemap, a list file) fetched as it
   * is, through the guard, the gate and the download limit of every fetch, for the composer
   * to read as a dropped file. `name` is the address it came from after redirects, `base`
   * what its relative links resolve against. An answer that cannot be a list (a PDF, an
   * image) is the error `not_a_list`; stopReadingList with the same token ends it as `cancelled`.
   */
  readListAt: {
    req: z.object({ token: z.string().min(1).max(128), url: z.string().min(1).max(8192) }).strict(),
    res: z.object({ name: z.string(), text: z.string(), bytes: z.number(), mimeType: z.string(), filename: z.string(), base: z.string() }),
  },
  /** Stops the reading of readListAt with this token; false when none runs. */
  stopReadingList: { req: z.object({ token: z.string().min(1).max(128) }).strict(), res: z.object({ stopped: z.boolean() }) },
  /** Stops the reading with this token; false when none runs. */
  stopReadingSitemaps: { req: z.object({ token: z.string().min(1).max(128) }).strict(), res: z.object({ stopped: z.boolean() }) },
  /** The system save/folder dialog for an export; returns a token for exportJob. */
  chooseExportTarget: {
    req: z.object({ id: JobId, format: ExportFormatSchema }).strict(),
    res: z.object({ token: z.string(), path: z.string() }).nullable(),
  },
  exportJob: {
    req: z
      .object({
        id: JobId,
        token: z.string().min(1).max(128),
        format: ExportFormatSchema,
        includeFailed: z.boolean().default(false),
        includeMeta: z.boolean().default(false),
      })
      .strict(),
    res: ExportSummarySchema,
  },
  /**
   * Stops the export that runs (or is about to run) with this token; it ends with the error
   * `cancelled` and leaves nothing written. False when the token is not one chooseExportTarget gave.
   */
  cancelExport: { req: z.object({ token: z.string().min(1).max(128) }).strict(), res: z.object({ cancelled: z.boolean() }) },

  // ---- Search over stored results (issue 16) ----
  /** Full-text search, best first; one job or (no id) all jobs. An empty query is an error that says what to type. */
  search: {
    req: z.object({ query: SearchQuerySchema, id: JobId.optional(), limit: z.number().int().min(1).max(200).default(50) }).strict(),
    res: z.object({ hits: z.array(SearchHitSchema), plain: z.boolean(), why: z.string().max(200).optional() }),
  },
  /** "Ask this job": the passages of the job's results that best answer a question, with citations. */
  askJob: {
    req: z.object({ id: JobId, question: SearchQuerySchema }).strict(),
    res: z.object({ passages: z.array(JobAnswerSchema), scope: AskScopeSchema }),
  },
  /** Runs the search again and saves its hits, with citations, where the user chooses (null: cancelled). */
  exportHits: {
    req: z.object({ query: SearchQuerySchema, id: JobId.optional(), format: HitsFormatSchema, limit: z.number().int().min(1).max(1000).default(200) }).strict(),
    /** more: more results matched than the hits saved. */
    res: z.object({ path: z.string(), hits: z.number(), more: z.boolean() }).nullable(),
  },
} as const;

export const eventContract = {
  /** A job changed (created, status, counts). */
  jobChanged: JobSchema,
  /** Target rows that changed since the last event of this job (main batches them, ~10/s). */
  /**
   * `was`: each row's outcome before the changes this message carries (its first change's), so
   * a row not read yet moves in the counts main sent with the last page (`rest`) at once. Main
   * sends every change before it answers a page, so a page's `rest` holds every change sent before it.
   */
  targetsChanged: z.object({ jobId: z.string(), rows: z.array(TargetRowSchema), was: z.array(RowOutcomeSchema).optional() }),
  /** A job was deleted (by the user or the expiry sweep). */
  jobRemoved: z.object({ id: z.string() }),
  exportProgress: z.object({ token: z.string(), done: z.number(), total: z.number() }),
  /** Child sitemaps read so far of those known (a nested index adds to total), and the pages found. */
  sitemapProgress: z.object({ token: z.string(), done: z.number(), total: z.number(), pages: z.number() }),
} as const satisfies Record<string, z.ZodType>;

export type InvokeContract = typeof invokeContract;
export type Method = keyof InvokeContract;
export type Req<M extends Method> = z.input<InvokeContract[M]['req']>;
export type ParsedReq<M extends Method> = z.output<InvokeContract[M]['req']>;
export type Res<M extends Method> = z.output<InvokeContract[M]['res']>;

export type EventContract = typeof eventContract;
export type EventName = keyof EventContract;
export type EventPayload<E extends EventName> = z.output<EventContract[E]>;

export const METHODS = Object.keys(invokeContract) as Method[];
export const EVENTS = Object.keys(eventContract) as EventName[];

/** The channel string a method travels on (Electron IPC and the bridge alike). */
export const channelOf = (m: string): string => `sift:${m}`;
export const eventChannelOf = (e: string): string => `sift:event:${e}`;

/** Every answer is an envelope, so typed errors survive Electron's IPC (which keeps only message). */
export const EnvelopeSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorInfoSchema }),
]);
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** What the renderer sees as window.sift. */
export type SiftApi = {
  [M in Method]: Record<string, never> extends Req<M> ? (req?: Req<M>) => Promise<Res<M>> : (req: Req<M>) => Promise<Res<M>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};
