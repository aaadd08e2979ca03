import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../shared/settings';
import { SiftError } from '../shared/errors';
import type { FetchSettings } from './fetch';
import type { RunnerConfig } from './batch';
import { makeDirsSync } from './mkdirs';
import { placeAt } from './fetch/json-doc';

const MIB = 1024 * 1024;

/** Reads settings.json; a missing or damaged file gives the defaults (and says why). */
export function loadSettings(file: string): { settings: Settings; problem?: string } {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    // No file is a fresh install; one Sift may not read (a folder, no permission) is a problem to tell.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { settings: { ...DEFAULT_SETTINGS } };
    return { settings: { ...DEFAULT_SETTINGS }, problem: `settings.json could not be read (${code ?? 'unknown error'})` };
  }
  try {
    const parsed = SettingsSchema.partial().safeParse(JSON.parse(raw));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      return { settings: { ...DEFAULT_SETTINGS }, problem: `settings.json does not match the settings schema (${where}${issue?.message ?? 'invalid'})` };
    }
    return { settings: { ...DEFAULT_SETTINGS, ...stripUndefined(parsed.data) } };
  } catch (err) {
    return { settings: { ...DEFAULT_SETTINGS }, problem: `settings.json is not valid JSON${whereInText(raw, err)}` };
  }
}

/**
 * " (line 3, column 1)" where JSON.parse stopped, for the person correcting the file by hand;
 * V8 gives only a character's position ("… in JSON at position 31"), '' when it gives none.
 */
function whereInText(raw: string, err: unknown): string {
  const at = /at position (\d+)/.exec(err instanceof Error ? err.message : '');
  if (!at) return '';
  const { line, column } = placeAt(raw, Number(at[1]));
  return ` (line ${line}, column ${column})`;
}

/** Merges a change into the current settings; throws a typed error naming the bad field. */
export function mergeSettings(current: Settings, change: Partial<Settings>): Settings {
  const next = SettingsSchema.safeParse({ ...current, ...stripUndefined(change) });
  if (!next.success) {
    const issue = next.error.issues[0];
    throw new SiftError('bad_setting', 400, `${issue?.path.join('.') ?? 'setting'}: ${issue?.message ?? 'invalid'}`, 'Correct the value and save again.');
  }
  if (next.data.jobsPerCaller > next.data.jobsTotal) {
    throw new SiftError('bad_setting', 400, 'Live jobs at once (this app) cannot exceed live jobs at once (all).', 'Lower the first or raise the second in Settings.');
  }
  return next.data;
}

/** Writes settings.json atomically (temp file, then rename), so a crash never leaves half a file. */
export function saveSettings(file: string, s: Settings): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    makeDirsSync(path.dirname(file));
    writeFileSync(tmp, `${JSON.stringify(s, null, 2)}\n`);
    renameSync(tmp, file);
  } catch (err) {
    // A full disk or a read-only folder is the user's to fix, not "internal error … a bug in Sift".
    rmSync(tmp, { force: true });
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new SiftError('settings_not_saved', 500, `The settings could not be saved (${code} writing ${file}).`, 'Nothing was changed. Check that the folder is writable and has space, then save again.');
  }
}

export function fetchSettingsOf(s: Settings): Partial<FetchSettings> {
  return {
    allowPrivate: s.allowPrivate,
    allowHosts: s.allowHosts,
    userAgent: s.userAgent,
    maxBodyBytes: Math.round(s.maxBodyMiB * MIB),
    deadlineMs: s.deadlineSeconds * 1000,
    connectTimeoutMs: s.connectTimeoutSeconds * 1000,
    jqLimitMs: s.jqSeconds * 1000,
    archiveService: s.archiveService,
    maxPdfPages: s.maxPdfPages,
    render: s.render,
    renderBudgetMs: s.renderBudgetSeconds * 1000,
    renderPages: s.renderPages,
    chromiumPath: s.chromiumPath,
  };
}

export function runnerConfigOf(s: Settings): Partial<RunnerConfig> {
  return {
    targetsPerJob: s.targetsPerJob,
    jobsPerCaller: s.jobsPerCaller,
    jobsTotal: s.jobsTotal,
    workers: s.workers,
    ttlMs: s.ttlHours * 3600_000,
    maxBytes: Math.round(s.maxResultMiB * MIB),
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
