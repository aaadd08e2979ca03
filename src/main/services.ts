import type { AppInfo, EventName, EventPayload } from '../shared/ipc/contract';
import type { Handlers } from './ipc/dispatch';
import { APP_NAME, VERSION } from './version';

/** The system dialogs (Electron's in the app; a stand-in over the bridge). */
export interface Dialogs {
  openFile(filters: { name: string; extensions: string[] }[]): Promise<string | null>;
  chooseFolder(): Promise<string | null>;
  saveFile(defaultPath: string): Promise<string | null>;
}

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface ServicesOptions {
  dbPath: string;
  host: AppInfo['host'];
  platform?: string;
  /** better-sqlite3's native module built for Electron's ABI (see scripts/start.mjs). */
  nativeBinding?: string;
  dialogs?: Dialogs;
  emit?: Emit;
}

export interface Services {
  handlers: Handlers;
  logInternal(method: string, err: unknown): void;
  close(): Promise<void>;
}

/**
 * The main-process services behind every IPC channel. Plain Node: the Electron binding
 * and the test bridge both bind these same handlers.
 */
export function createServices(opts: ServicesOptions): Services {
  const handlers: Handlers = {
    appInfo: () => ({
      name: APP_NAME,
      version: VERSION,
      dbPath: opts.dbPath,
      platform: opts.platform ?? process.platform,
      host: opts.host,
    }),
  };
  return {
    handlers,
    logInternal: (method, err) => {
      process.stderr.write(`sift: ${method} failed: ${err instanceof Error ? err.message : String(err)}\n`);
    },
    close: async () => {},
  };
}
