import * as z from 'zod';

/**
 * What the user can change in Settings, persisted in settings.json in the data folder.
 * Defaults are made for one person with long lists (SPEC §7), not the runner library's
 * zero-config ones (32 / 1 / 8, 24 h).
 */
export const SettingsSchema = z
  .object({
    targetsPerJob: z.number().int().min(1).max(100_000),
    jobsPerCaller: z.number().int().min(1).max(64),
    jobsTotal: z.number().int().min(1).max(64),
    workers: z.number().int().min(1).max(16),
    ttlHours: z.number().min(1).max(24 * 365),
    maxResultMiB: z.number().min(0.0625).max(256),
    maxBodyMiB: z.number().min(1).max(1024),
    deadlineSeconds: z.number().int().min(5).max(3600),
    connectTimeoutSeconds: z.number().int().min(1).max(300),
    /** How long one jq program may run before it is stopped. */
    jqSeconds: z.number().int().min(1).max(3600),
    maxPdfPages: z.number().int().min(1).max(100_000),
    allowPrivate: z.boolean(),
    allowHosts: z.array(z.string().min(1).max(253)).max(1000),
    /**
     * Sent as a header on every fetch: a line break or a character outside ASCII (an "—" typed
     * by a phone keyboard) made every fetch fail as "connection failed", with no word why.
     */
    userAgent: z.string().min(1).max(512).regex(/^[\x20-\x7e]*$/),
    archiveService: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(2048)]),
    /** A target's render option when it names none (SPEC §5.10). */
    render: z.enum(['auto', 'always', 'never']),
    /** How long a page may run its JavaScript before what it has is taken (or it is a 504). */
    renderBudgetSeconds: z.number().int().min(1).max(300),
    /** Pages rendering at once; each also holds a fetch-gate slot. */
    renderPages: z.number().int().min(1).max(8),
    /** A Chromium or Chrome executable for the CLI; '' = SIFT_CHROMIUM, then the usual places. */
    chromiumPath: z.string().max(4096),
  })
  .strict();
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  targetsPerJob: 10_000,
  jobsPerCaller: 4,
  jobsTotal: 8,
  workers: 4,
  ttlHours: 24 * 7,
  maxResultMiB: 8,
  maxBodyMiB: 50,
  deadlineSeconds: 210,
  connectTimeoutSeconds: 30,
  jqSeconds: 60,
  maxPdfPages: 500,
  allowPrivate: false,
  allowHosts: [],
  userAgent: 'Mozilla/5.0 (compatible; Sift/0.1; +https://github.com/sift-app/sift)',
  archiveService: 'https://archive.org/wayback/available',
  render: 'auto',
  renderBudgetSeconds: 15,
  renderPages: 2,
  chromiumPath: '',
};
