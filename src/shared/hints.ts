import { literally } from './grep';
/** Where a message is read: the command line, or the app's window. */
export type Surface = 'cli' | 'app';

/**
 * What to do about a password-protected PDF, where it is read: the command line's user can run
 * `sift extract` on a copy without the password; the app has no such command, and its user
 * reads the document in a PDF reader.
 */
export const ENCRYPTED_PDF_HINT: Readonly<Record<Surface, string>> = {
  cli: 'Sift cannot open password-protected PDFs: save a copy without the password (a PDF reader that has it can), then run sift extract on that copy.',
  app: 'Sift cannot open password-protected PDFs: open it in a PDF reader with its password, or ask its owner for an unprotected copy at an address Sift can fetch.',
};

/**
 * How to turn rendering on for a page that needs its JavaScript run: the command line has its
 * flag; the app has no flags, and its user turns it on in Settings or in the retry dialog of
 * the failed pages (the labels those two show).
 */
export const NEEDS_JS_HINT: Readonly<Record<Surface, string>> = {
  cli: 'Turn on rendering (--render auto) so Sift runs the page in a browser.',
  app: 'Turn on rendering so Sift runs the page in a browser: set “Run a page’s JavaScript” in Settings to auto, or retry these pages with “Run the pages in a browser” ticked.',
};

/**
 * Why the guard refused an address (SPEC §5.2), after what it was: how to allow it. The app's
 * place is its Settings; the command line's, its two flags (a flag allows for one run).
 */
export const BLOCKED_TAIL: Readonly<Record<Surface, string>> = {
  cli: '. Sift does not fetch private, loopback or reserved addresses unless their host is allowed (--allow-host HOST) or all private addresses are (--allow-private).',
  app: '. Sift does not fetch private, loopback or reserved addresses unless they are allowed in Settings, under Network: add the host to the hosts allowed, or allow private and loopback addresses.',
};

/** How to allow a host a rendered page needed, after what the guard refused of it. */
export const ALLOW_HOST_HINT: Readonly<Record<Surface, string>> = {
  cli: 'If the page needs a host on your network, allow it (--allow-host HOST).',
  app: 'If the page needs a host on your network, allow it in Settings, under Network.',
};

/** Why no archived copy came when the archive service itself is at an address the guard refuses. */
export const ARCHIVE_BLOCKED: Readonly<Record<Surface, string>> = {
  cli: 'the archive service is at an address Sift does not fetch; allow its host with --allow-host HOST',
  app: 'the archive service is at an address Sift does not fetch; allow its host in Settings, under Network',
};

/** Why no archived copy came when no archive service is set: it is set in Settings, under Network beside the hosts allowed. */
export const ARCHIVE_UNSET: Readonly<Record<Surface, string>> = {
  cli: 'no archive service is set in the app’s Settings, under Network',
  app: 'no archive service is set in Settings, under Network',
};

/**
 * No browser to render with. The command line's user has a shell: an environment variable
 * and a flag. The app's has neither, and picks the browser in Settings (the field's label).
 */
export const NO_BROWSER_HINT: Readonly<Record<Surface, string>> = {
  cli: 'Install Chromium or Google Chrome, or point Sift at one: set SIFT_CHROMIUM=/path/to/chrome, or "Browser for the command line" in the app’s Settings. Without a browser use --render never.',
  app: 'Install Chromium or Google Chrome, or choose one in Settings under "Browser for the command line". Without a browser, set "Run a page’s JavaScript" in Settings to never.',
};

/** Where the command line's browser is set, as a failure names it: the command line reads the app's settings file. */
export const BROWSER_SETTING: Readonly<Record<Surface, string>> = {
  cli: '"Browser for the command line" in the app’s Settings',
  app: '"Browser for the command line" in Settings',
};

/**
 * Why Electron's page process ended (render-process-gone's reason) in words: the code itself
 * ('oom', 'abnormal-exit') was shown to the user in the app's hint.
 */
export function crashWords(reason: string | undefined): string {
  if (reason === 'oom') return 'out of memory';
  if (reason === 'memory-eviction') return 'closed to free memory';
  if (reason === 'killed') return 'killed';
  return 'a crash';
}

/**
 * The app's crash hint as stored before e7a84d15, with render-process-gone's reason as it came
 * (Electron 41 has these 8); only inside this sentence, so a code elsewhere is left alone.
 */
const STORED_CRASH = /(page process ended \()(clean-exit|abnormal-exit|killed|crashed|oom|launch-failed|integrity-failure|memory-eviction)\)/;

/** One wording per surface, made from what differs between them. */
const perSurface = (say: (s: Surface) => string): Readonly<Record<Surface, string>> => ({ cli: say('cli'), app: say('app') });

/**
 * How to read a page without running its JavaScript, for what rendering could not do: the
 * command line's flag; the app's setting, as NO_BROWSER_HINT names it. A list line's
 * render=never is neither surface's place to act.
 */
const RENDER_NEVER: Readonly<Record<Surface, string>> = {
  cli: '(--render never)',
  app: '(set “Run a page’s JavaScript” in Settings to never)',
};

/** What to do when rendering failed, by how it failed; each ends in how to read the page without it. */
export const RENDER_HINT = {
  busy: perSurface((s) => `The page keeps the browser busy; read it without running it ${RENDER_NEVER[s]}, or raise "Time a page may run" in ${s === 'cli' ? 'the app’s ' : ''}Settings.`),
  unloaded: perSurface((s) => `The browser could not load the page; read it without running it ${RENDER_NEVER[s]}.`),
  download: perSurface((s) => `Read its HTML as the server sends it, without running it ${RENDER_NEVER[s]}.`),
  reloads: perSurface((s) => `It reloads or redirects itself over and over; open it in a browser to see where it goes, or read it without running it ${RENDER_NEVER[s]}.`),
  wentOn: perSurface(
    (s) => `The page itself loads, but its script or a redirect sends the browser on to one that fails; open it in a browser to see where it goes, or read it as the server sends it ${RENDER_NEVER[s]}.`,
  ),
  blank: perSurface((s) => `Some pages do this to turn automated browsers away: open it in a browser to see what it shows, or read its HTML as the server sends it ${RENDER_NEVER[s]}.`),
  scriptHeld: perSurface((s) => `The server of the page's scripts did not finish sending them; try again later, or read the page without running it ${RENDER_NEVER[s]}.`),
  styleHeld: perSurface(
    (s) => `The server of the page's stylesheets did not finish sending them, and the browser runs none of its scripts before them; try again later, or read the page without running it ${RENDER_NEVER[s]}.`,
  ),
  /** The app's own browser could not be given a session for the page (Electron refused it). */
  setup: perSurface((s) => `The app's browser could not be set up for the page; try again, or restart Sift if it keeps failing, or read the page without running it ${RENDER_NEVER[s]}.`),
  /** After why the page's process ended, which varies. */
  crashed: perSurface((s) => `try again, or read it without running it ${RENDER_NEVER[s]}.`),
} as const;

/**
 * What the raw mode still returns of a document too big or too deep to read as an article:
 * the command line's flag; the app's Extract select, where raw reads "the document as served".
 */
export const RAW_STILL: Readonly<Record<Surface, string>> = {
  cli: '--mode raw still returns it as it is',
  app: 'choosing “raw” under Extract still returns it as it is',
};

/**
 * How to fetch a target the job did not finish, after "run": the app's button ("Run the rest
 * again"); the command line's flag, on the same list (`sift batch LIST --rest`).
 */
export const REST_AGAIN: Readonly<Record<Surface, string>> = {
  cli: 'the same sift batch again with --rest to fetch it',
  app: 'the rest again to fetch it',
};

/**
 * How to choose a PDF's pages, with a selection for the example: the command line's flag; the
 * app's "PDF pages" field, under "Options for every URL". On both a URL's line of a list may
 * carry its own (the paste box shows `pages=1-5`), which wins over them, so it is named too.
 */
export const PAGES_EXAMPLE = (s: Surface, pages: string): string =>
  s === 'cli' ? `e.g. --pages ${pages}, or pages=${pages} on the URL’s line of a list` : `e.g. ${pages} in “PDF pages”, or pages=${pages} on the URL’s line of the list`;

/** The surface a caller's name stands for (SPEC §7: cli or cli/batch, desktop or desktop/batch). */
export const surfaceOf = (caller: string): Surface => (caller.split('/')[0] === 'cli' ? 'cli' : 'app');

/**
 * Hints worded for one surface, each with the words a database may hold from before: one
 * surface's hint is stored with the target it ran, and the other surface opens the same job
 * (the app shows a job sift batch ran, sift status one the app ran). Some are a part of a
 * hint (what was blocked comes before BLOCKED_TAIL), so they are found inside one.
 */
const BY_SURFACE: { words: Readonly<Record<Surface, string>>; older: string[] }[] = [
  { words: ENCRYPTED_PDF_HINT, older: ['Sift cannot open password-protected PDFs; save an unprotected copy and use sift extract.'] },
  { words: NEEDS_JS_HINT, older: ['Turn on rendering (--render auto, or "Run a page’s JavaScript" in Settings) so Sift runs the page in a browser.'] },
  {
    words: BLOCKED_TAIL,
    older: ['. Sift does not fetch private, loopback or reserved addresses unless their host is allowed (Settings, Network; or --allow-host HOST) or all private addresses are (--allow-private).'],
  },
  { words: ALLOW_HOST_HINT, older: ['If the page needs a host on your network, allow it (Settings, Network; or --allow-host HOST).'] },
  { words: ARCHIVE_UNSET, older: ['no archive service is set (Settings, Archive service)'] },
  { words: ARCHIVE_BLOCKED, older: ['the archive service is at an address Sift does not fetch; allow its host in Settings (Network) or with --allow-host'] },
  {
    words: NO_BROWSER_HINT,
    older: ['Install Chromium or Google Chrome, or point Sift at one: set SIFT_CHROMIUM=/path/to/chrome, or "Browser for the command line" in Settings. Without a browser use render=never.'],
  },
  // After NO_BROWSER_HINT, whose older words hold the app's.
  { words: BROWSER_SETTING, older: [] },
  // Each renderer hint named a list line's option (render=never) on both surfaces before s25.
  { words: RENDER_HINT.busy, older: ['The page keeps the browser busy; try render=never, or raise "Time a page may run" in Settings.'] },
  { words: RENDER_HINT.unloaded, older: ['The browser could not load the page; try render=never.'] },
  { words: RENDER_HINT.download, older: ['Read its HTML as the server sends it, without running it: render=never.'] },
  { words: RENDER_HINT.reloads, older: ['It reloads or redirects itself over and over; open it in a browser to see where it goes, or try render=never.'] },
  {
    words: RENDER_HINT.wentOn,
    older: ['The page itself loads, but its script or a redirect sends the browser on to one that fails; open it in a browser to see where it goes, or read it as the server sends it with render=never.'],
  },
  { words: RENDER_HINT.crashed, older: ['try again, or render=never.'] },
  { words: RENDER_HINT.blank, older: [] },
  { words: RENDER_HINT.scriptHeld, older: [] },
  { words: RENDER_HINT.styleHeld, older: [] },
  { words: RENDER_HINT.setup, older: [] },
  { words: RAW_STILL, older: ['mode=raw still returns it as it is'] },
  // The app's words are what every surface stored before s25.
  { words: REST_AGAIN, older: [] },
];

/**
 * Hints worded per surface around a page selection ("1-20", "3-7"), found whatever the
 * selection, each with its older words: both surfaces said a list line's `pages=1-20` before s26.
 */
const WITH_PAGES: { words: (s: Surface, pages: string) => string; older: ((pages: string) => string)[] }[] = [{ words: PAGES_EXAMPLE, older: [(p) => `e.g. pages=${p}`] }];

/** What a page selection is in a hint: digits, commas and dashes, starting with a digit. */
const SELECTION = '(\\d[\\d,-]*)';

/** Finds a wording made around a selection, whatever the selection; its first group is the selection. */
function finder(say: (pages: string) => string): RegExp {
  const [head = '', ...tail] = literally(say('\0')).split('\0');
  return new RegExp(head + tail.map((part, i) => (i === 0 ? SELECTION : '\\1') + part).join(''));
}

/**
 * WITH_PAGES' finders for each surface, made once: hintOn runs for every row an export or a
 * summary writes. `own`: the surface's words; `others`: the other surface's and the older ones.
 */
const PAGES_FINDERS: Readonly<Record<Surface, { words: (s: Surface, pages: string) => string; own: RegExp; others: RegExp[] }[]>> = {
  cli: pagesFinders('cli'),
  app: pagesFinders('app'),
};

function pagesFinders(surface: Surface): { words: (s: Surface, pages: string) => string; own: RegExp; others: RegExp[] }[] {
  const other: Surface = surface === 'cli' ? 'app' : 'cli';
  return WITH_PAGES.map(({ words, older }) => ({
    words,
    own: finder((p) => words(surface, p)),
    others: [(p: string) => words(other, p), ...older].map(finder),
  }));
}

/**
 * The limits the command line has no flag for (time per URL, largest download, largest result,
 * URLs per job…) are raised in the app's Settings, which it reads too (cli/settings.ts). The
 * core says "in Settings", as the app reads it; the command line says whose Settings those are.
 */
const SETTINGS_PLACE: Readonly<Record<Surface, { find: RegExp; say: string }>> = {
  cli: { find: /\bin Settings\b/g, say: 'in the app’s Settings' },
  app: { find: /\bin the app[’']s Settings\b/g, say: 'in Settings' },
};

/** Every wording kept per surface, for the test that no surface's words name the other's places. */
export const SURFACE_WORDS: readonly Readonly<Record<Surface, string>>[] = BY_SURFACE.map((h) => h.words);

/** A stored hint in the words of the surface that shows it, whatever surface ran its job. */
export function hintOn(surface: Surface, hint: string): string {
  let out = hint.replace(STORED_CRASH, (_all, lead: string, code: string) => `${lead}${crashWords(code)})`);
  for (const { words, older } of BY_SURFACE) {
    if (out.includes(words[surface])) continue;
    const other = [...Object.values(words), ...older].find((w) => out.includes(w));
    if (other) out = out.replace(other, () => words[surface]);
  }
  for (const { words, own, others } of PAGES_FINDERS[surface]) {
    if (own.test(out)) continue;
    const other = others.find((re) => re.test(out));
    if (other) out = out.replace(other, (_all, pages: string) => words(surface, pages));
  }
  return out.replace(SETTINGS_PLACE[surface].find, SETTINGS_PLACE[surface].say);
}
