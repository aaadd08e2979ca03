/**
 * `npm run dev`: the renderer in your own browser, against the real main-process services,
 * without Electron (whose binary `npm ci` does not fetch). Vite rebuilds the renderer on
 * every change; the loopback bridge serves it and carries window.sift over a WebSocket.
 * Data goes to SIFT_HOME, or to a dev folder beside the app's own.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServices } from '../src/main/services';
import { dataDir } from '../src/main/paths';
import { startBridge, type Bridge } from '../test/bridge/host';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..');
  const home = process.env.SIFT_HOME ? path.resolve(process.env.SIFT_HOME) : `${dataDir()}-dev`;
  mkdirSync(home, { recursive: true });
  const outDir = path.join(root, 'out/renderer');
  // vite build --watch in its own process: vite's API loaded from this CommonJS script
  // mis-resolves its own client helpers.
  const vite = spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--watch', '--config', path.join(root, 'vite.renderer.config.mts')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.on('exit', () => vite.kill());
  for (let i = 0; i < 600 && !existsSync(path.join(outDir, 'index.html')); i++) await new Promise((r) => setTimeout(r, 100));

  // Events go to the bridge once it exists (it needs the services' handlers first).
  const sink: { bridge?: Bridge } = {};
  const exportsDir = path.join(home, 'exports');
  const services = createServices({
    dbPath: path.join(home, 'sift.db'),
    dataDir: home,
    host: 'bridge',
    emit: (event, payload) => sink.bridge?.emit(event, payload),
    dialogs: {
      // A browser has no system dialog to lend: lists come in by drop or paste, and
      // exports go to one folder in the dev data directory.
      openFile: async () => null,
      chooseFolder: async () => (mkdirSync(exportsDir, { recursive: true }), exportsDir),
      saveFile: async (p) => path.join(exportsDir, path.basename(p)),
    },
  });
  const bridge = await startBridge({ handlers: services.handlers, staticDir: outDir, injectClient: true, checkResponses: true });
  sink.bridge = bridge;
  process.stdout.write(`Sift (dev) at ${bridge.url}  data: ${home}\n`);
  const stop = async (): Promise<void> => {
    vite.kill();
    await bridge.close();
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
