import type { Settings } from '../shared/settings';
import { dataDir, settingsPath } from '../main/paths';
import { loadSettings } from '../main/settings';
import type { CliIO } from './io';

// Apart from context.ts (the store and the engine) so that sift fetch and sift extract,
// which never open the database, do not load better-sqlite3, pino and prom-client.

/** The CLI's caller (SPEC §7): its jobs' fetches run as cli/batch. */
export const CLI_CALLER = { name: 'cli' } as const;

export function cliSettings(flags: { allowPrivate?: boolean; allowHosts?: string[] }, io: CliIO): Settings {
  // The app's saved settings (size limits, user agent, allow list) apply to the CLI too;
  // --allow-host adds to the saved allow list for this run.
  const { settings } = loadSettings(settingsPath(dataDir(io.env)));
  const out = flags.allowPrivate ? { ...settings, allowPrivate: true } : { ...settings };
  if (flags.allowHosts?.length) out.allowHosts = [...new Set([...settings.allowHosts, ...flags.allowHosts])];
  return out;
}
