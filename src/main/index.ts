/**
 * The Electron shell: app lifecycle, the window, the system dialogs. Everything it calls is
 * plain Node (services, store, runner, fetch) and is what the CLI and the tests use.
 */
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, session, shell } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bindContract, trustedSenderFor } from './ipc/bind';
import { eventChannelOf } from '../shared/ipc/contract';
import { createServices } from './services';
import { SiftError } from '../shared/errors';
import { defaultDbPath } from './paths';
import { answeringOwner } from './control-owner';
import { hardenSession, hardenWebContents, windowOptions } from './app/window';
import { electronRendererFactory, RENDER_SWITCHES } from './app/render-window';

app.enableSandbox();
app.setName('Sift');
// Rendered pages reach the network only through the guarding proxy (SPEC §5.10).
for (const [name, value] of RENDER_SWITCHES) app.commandLine.appendSwitch(name, value);

let mainWindow: BrowserWindow | null = null;
const QUIT_GRACE_MS = 5_000;

async function boot(): Promise<void> {
  await app.whenReady();
  hardenSession(session.defaultSession);

  const rendererUrl = process.env.ELECTRON_RENDERER_URL
    ? process.env.ELECTRON_RENDERER_URL
    : pathToFileURL(path.join(__dirname, '../renderer/index.html')).href;

  // The render windows (render-window.ts) have rules of their own, in their own partitions;
  // every other web contents is the app's.
  const renderSessions = new Set<Electron.Session>();
  app.on('web-contents-created', (_e, contents) => {
    if (!renderSessions.has(contents.session)) {
      hardenWebContents(contents, rendererUrl, shell, {
        popup: (template) => Menu.buildFromTemplate(template).popup({ window: BrowserWindow.fromWebContents(contents) ?? undefined }),
        copyText: (text) => clipboard.writeText(text),
      });
    }
  });

  const services = createServices({
    dbPath: defaultDbPath(app.getPath('userData')),
    host: 'electron',
    nativeBinding: process.env.SIFT_SQLITE_BINDING,
    dialogs: {
      async openFile(filters) {
        const res = await dialog.showOpenDialog({ properties: ['openFile'], filters });
        return res.canceled ? null : (res.filePaths[0] ?? null);
      },
      async chooseFolder() {
        const res = await dialog.showOpenDialog({ properties: ['openDirectory', 'createDirectory'] });
        return res.canceled ? null : (res.filePaths[0] ?? null);
      },
      async saveFile(defaultPath) {
        const res = await dialog.showSaveDialog({ defaultPath });
        return res.canceled ? null : (res.filePath ?? null);
      },
    },
    emit: (event, payload) => mainWindow?.webContents.send(eventChannelOf(event), payload),
    renderer: electronRendererFactory({
      fromPartition: (partition) => {
        const s = session.fromPartition(partition, { cache: true });
        renderSessions.add(s);
        return s;
      },
      createWindow: (options) => new BrowserWindow(options),
      chromeVersion: process.versions.chrome ?? '',
    }),
  });

  bindContract(ipcMain, services.handlers, {
    isTrustedSender: trustedSenderFor(rendererUrl),
    onInternalError: services.logInternal,
  });


  mainWindow = new BrowserWindow(windowOptions(path.join(__dirname, '../preload/index.js')));
  mainWindow.once('ready-to-show', () => mainWindow?.show());
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  await mainWindow.loadURL(rendererUrl);

  let closing = false;
  app.on('before-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    // In-flight targets get a few seconds to finish and be stored; a slow one is not worth
    // a window that will not close, so after QUIT_GRACE_MS the runner aborts it and stores it
    // "interrupted" (run the rest again takes it). The outer race is the last resort if the
    // store itself hangs; whatever that leaves running is marked "restart" at the next start.
    const grace = new Promise<void>((resolve) => setTimeout(resolve, QUIT_GRACE_MS * 2).unref());
    void Promise.race([services.close({ graceMs: QUIT_GRACE_MS }), grace]).finally(() => app.quit());
  });
  app.on('window-all-closed', () => app.quit());
}

/** A second start of the app shows the window already open. */
function showWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

// One app per data folder: a second start (a double click too many, a dock icon clicked while
// the window hides behind others) could not open the database the first one owns, and
// showed "Sift could not start … in use by another Sift" over the window that was running.
if (app.requestSingleInstanceLock()) {
  app.on('second-instance', showWindow);
  boot().catch(failedToStart);
} else {
  app.quit();
}

/**
 * With one app per data folder, the other Sift holding the database is a command in a
 * terminal; the store's own hint names --db and "the other Sift window", which mean nothing here.
 */
const LOCKED_HINT = 'A sift command (sift batch, say) is using it: wait for it to finish, or stop it with Ctrl-C, then start Sift again.';

function failedToStart(err: unknown): void {
  // A typed error's hint says what to do ("wait for the other sift command to finish"): a
  // `sift batch` owning the database left the box at "in use by another Sift" and no more.
  // Only a Sift that answers requests is known to be a sift command; sqlite3 or a backup tool
  // holding the file is named by the store's own words.
  const bySift = err instanceof SiftError && err.code === 'db_locked' && answeringOwner(defaultDbPath(app.getPath('userData')));
  const hint = err instanceof SiftError ? (bySift ? LOCKED_HINT : err.hint) : '';
  const said = err instanceof SiftError && hint ? `${err.message}\n\n${hint}` : err instanceof Error ? err.message : String(err);
  dialog.showErrorBox('Sift could not start', said);
  app.exit(1);
}
