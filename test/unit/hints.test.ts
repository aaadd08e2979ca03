import { describe, expect, it } from 'vitest';
import { hintOn, NEEDS_JS_HINT } from '../../src/shared/hints';

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
