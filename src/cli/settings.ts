import type { Settings } from '../shared/settings';
import { dataDir, settingsPath } from '../main/paths';
import { loadSettings } from '../main/settings';
import type { CliIO } from './io';

// Apart from context.ts (the store and the engine) so that sift fetch and sift extract,
// which never open the database, do not load better-sqlite3, pino and prom-client.

/** The CLI's caller (SPEC §7): its jobs' fetches run as cli/batch. */
export const CLI_CALLER = { name: 'cli' } as const;

/** The settings files whose problem this process has told of (a command may read them twice). */
const told = new Set<string>();
/** Set by sift batch, whose first line on stderr must be `job ID` (SPEC §6): the note waits. */
let held: string[] | undefined;

/** From now on a settings problem is kept for heldSettingsNote instead of written at once. */
export function holdSettingsNote(): void {
  held ??= [];
}

/** The settings problem kept since holdSettingsNote, once; '' when there is none. */
export function heldSettingsNote(): string {
  return (held ?? []).splice(0).join('');
}

export function cliSettings(flags: { allowPrivate?: boolean; allowHosts?: string[] }, io: CliIO): Settings {
  // The app's saved settings (size limits, user agent, allow list) apply to the CLI too;
  // --allow-host adds to the saved allow list for this run.
  const file = settingsPath(dataDir(io.env));
  const { settings, problem } = loadSettings(file);
  if (problem && !told.has(file)) {
    told.add(file);
    // A note, not the command's error: it said "sift:" as an error does, though the command ran.
    const note = `${problem}, so Sift uses its default settings: ${file}\n  Correct the file, or remove it to keep the defaults without this note (saving the settings in the app writes it anew).\n`;
    if (held) held.push(note);
    else io.stderr.write(note);
  }
  const out = flags.allowPrivate ? { ...settings, allowPrivate: true } : { ...settings };
  if (flags.allowHosts?.length) out.allowHosts = [...new Set([...settings.allowHosts, ...flags.allowHosts])];
  return out;
}
