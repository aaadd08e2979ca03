import { describe, expect, it } from 'vitest';
import { ARCHIVE_UNSET, hintOn, NEEDS_JS_HINT, PAGES_EXAMPLE, RENDER_HINT } from '../../src/shared/hints';
import { WARNING_LABELS, warningWhy } from '../../src/shared/reasons';

describe('a stored hint said in the words of the surface that shows it', () => {
  // The words every needs-JavaScript target held before each surface had its own (s23).
  const older = 'Turn on rendering (--render auto, or "Run a page’s JavaScript" in Settings) so Sift runs the page in a browser.';

  it("a needs-JavaScript hint names the app's setting in the app and the flag on the command line, whichever ran the job", () => {
    for (const stored of [older, NEEDS_JS_HINT.cli, NEEDS_JS_HINT.app]) {
      expect(hintOn('app', stored)).toBe(NEEDS_JS_HINT.app);
      expect(hintOn('cli', stored)).toBe(NEEDS_JS_HINT.cli);
    }
    expect(NEEDS_JS_HINT.app).not.toMatch(/--render/);
    expect(NEEDS_JS_HINT.cli).not.toMatch(/Settings/);
  });
});

describe("what to do when rendering failed, said where it is read", () => {
  // What the renderers stored before s25, on both surfaces: a list line's option.
  const older = [
    'The page keeps the browser busy; try render=never, or raise "Time a page may run" in Settings.',
    "The browser's page process ended (oom); try again, or render=never.",
    'The browser could not load the page; try render=never.',
  ];

  it("an older hint naming render=never reads as the app's setting in the app and as --render never on the command line", () => {
    const app = older.map((h) => hintOn('app', h));
    const cli = older.map((h) => hintOn('cli', h));
    for (const h of app) expect(h).toMatch(/set “Run a page’s JavaScript” in Settings to never/);
    for (const h of cli) expect(h).toMatch(/\(--render never\)/);
    for (const h of [...app, ...cli]) expect(h).not.toMatch(/render=/);
    expect(cli[0]).toBe(RENDER_HINT.busy.cli);
    expect(cli[0]).toMatch(/in the app’s Settings/);
    expect(app[1]).toBe(`The browser's page process ended (out of memory); ${RENDER_HINT.crashed.app}`);
    // Each surface's own words cross to the other's.
    expect(hintOn('app', RENDER_HINT.unloaded.cli)).toBe(RENDER_HINT.unloaded.app);
    expect(hintOn('cli', RENDER_HINT.unloaded.app)).toBe(RENDER_HINT.unloaded.cli);
  });
});

describe("a crash of the app's page process, stored with Electron's code", () => {
  it("reads in the words a crash is said in now, on both surfaces; the words of now stay as they are", () => {
    // What the app's renderer stored before e7a84d15: render-process-gone's reason as it came.
    const stored = (code: string): string => `The browser's page process ended (${code}); ${RENDER_HINT.crashed.app}`;
    const cases: [string, string][] = [
      ['oom', 'out of memory'],
      ['abnormal-exit', 'a crash'],
      ['crashed', 'a crash'],
      ['integrity-failure', 'a crash'],
      ['launch-failed', 'a crash'],
      ['memory-eviction', 'closed to free memory'],
      ['killed', 'killed'],
    ];
    for (const [code, words] of cases) {
      expect(hintOn('app', stored(code))).toBe(`The browser's page process ended (${words}); ${RENDER_HINT.crashed.app}`);
      expect(hintOn('cli', stored(code))).toBe(`The browser's page process ended (${words}); ${RENDER_HINT.crashed.cli}`);
    }
    const now = `The browser's page process ended (out of memory, or a crash) while the page ran; ${RENDER_HINT.crashed.cli}`;
    expect(hintOn('cli', now)).toBe(now);
    // A code in parentheses elsewhere in a hint is no crash's.
    expect(hintOn('cli', 'The server answered (oom) with nothing.')).toBe('The server answered (oom) with nothing.');
  });
});

describe('a target the job did not finish, said where it is read', () => {
  it('names the app\'s "Run the rest again" in the app and sift batch\'s --rest on the command line, whatever either stored', () => {
    const stored = 'The job was cancelled while this target was being fetched; run the rest again to fetch it.';
    expect(hintOn('app', stored)).toBe(stored);
    const cli = hintOn('cli', stored);
    expect(cli).toBe('The job was cancelled while this target was being fetched; run the same sift batch again with --rest to fetch it.');
    expect(hintOn('app', cli)).toBe(stored);
    expect(hintOn('cli', 'Run the rest again to fetch it.')).toBe('Run the same sift batch again with --rest to fetch it.');
  });
});

describe('how to choose a PDF\'s pages, said where it is read', () => {
  it("names the app's “PDF pages” field in the app and --pages on the command line, whatever selection and whichever words were stored", () => {
    // What both surfaces stored before s26: a list line's option alone.
    const older = 'Sift reads at most 5 pages at once; choose fewer at a time, e.g. pages=3-7.';
    expect(hintOn('app', older)).toBe(`Sift reads at most 5 pages at once; choose fewer at a time, ${PAGES_EXAMPLE('app', '3-7')}.`);
    expect(hintOn('cli', older)).toBe(`Sift reads at most 5 pages at once; choose fewer at a time, ${PAGES_EXAMPLE('cli', '3-7')}.`);
    const cli = `Choose pages from 1 to 12, ${PAGES_EXAMPLE('cli', '1-12')}.`;
    const app = `Choose pages from 1 to 12, ${PAGES_EXAMPLE('app', '1-12')}.`;
    expect(hintOn('app', cli)).toBe(app);
    expect(hintOn('cli', app)).toBe(cli);
    expect(hintOn('cli', cli)).toBe(cli);
    expect(app).not.toMatch(/--pages/);
    expect(cli).not.toMatch(/PDF pages/);
  });
});

describe("a limit raised in Settings, said where it is read", () => {
  it("the command line names the app's Settings, which it reads too; the app its own, whatever either stored", () => {
    const stored = 'Raise "Largest download" in Settings if you need documents this large.';
    const cli = hintOn('cli', stored);
    expect(cli).toBe('Raise "Largest download" in the app’s Settings if you need documents this large.');
    expect(hintOn('cli', cli)).toBe(cli);
    expect(hintOn('app', cli)).toBe(stored);
    expect(hintOn('app', stored)).toBe(stored);
    // The archive service's place, as both surfaces stored it before s26.
    const older = 'HTTP 404. No archived copy: no archive service is set (Settings, Archive service).';
    expect(hintOn('cli', older)).toBe(`HTTP 404. No archived copy: ${ARCHIVE_UNSET.cli}.`);
    expect(hintOn('app', older)).toBe(`HTTP 404. No archived copy: ${ARCHIVE_UNSET.app}.`);
  });
});

describe("a warning's why, in the words of the surface that shows it", () => {
  it("the app names its Meta table's rows and Settings, not meta field names or environment variables; the command line keeps them", () => {
    for (const w of Object.keys(WARNING_LABELS)) expect(warningWhy(w, 'app')).not.toMatch(/\b[a-z]+_[a-z_]+\b|SIFT_[A-Z]/);
    expect(warningWhy('recovered', 'app')).toMatch(/Archived at.*Archived copy/);
    expect(warningWhy('not_rendered', 'app')).toMatch(/“Not rendered because”.*“Browser for the command line”/);
    expect(warningWhy('recovered', 'cli')).toMatch(/snapshot_time/);
    expect(warningWhy('not_rendered', 'cli')).toMatch(/SIFT_CHROMIUM=/);
    expect(warningWhy('thin', 'app')).toBe(warningWhy('thin', 'cli'));
  });
});
