import os from 'node:os';
import path from 'node:path';

/**
 * Where Sift keeps its data. The same folder Electron's app.getPath('userData') gives for
 * productName "Sift", so the CLI and the app share one database. SIFT_HOME overrides it.
 */
export function dataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.SIFT_HOME) return path.resolve(env.SIFT_HOME);
  const home = os.homedir();
  switch (platform) {
    case 'darwin':
      return path.join(home, 'Library', 'Application Support', 'Sift');
    case 'win32':
      return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Sift');
    default:
      return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Sift');
  }
}

export const defaultDbPath = (dir = dataDir()): string => path.join(dir, 'sift.db');
export const defaultLogPath = (dir = dataDir()): string => path.join(dir, 'sift.log');
export const settingsPath = (dir = dataDir()): string => path.join(dir, 'settings.json');
