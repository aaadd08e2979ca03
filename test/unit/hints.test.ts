import { describe, expect, it } from 'vitest';
import { hintOn, NEEDS_JS_HINT } from '../../src/shared/hints';
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
