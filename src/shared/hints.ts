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

/** The surface a caller's name stands for (SPEC §7: cli or cli/batch, desktop or desktop/batch). */
export const surfaceOf = (caller: string): Surface => (caller.split('/')[0] === 'cli' ? 'cli' : 'app');

/**
 * Hints worded for one surface, each with the words a database may hold from before: one
 * surface's hint is stored with the target it ran, and the other surface opens the same job
 * (the app shows a job sift batch ran, sift status one the app ran).
 */
const BY_SURFACE: { words: Readonly<Record<Surface, string>>; older: string[] }[] = [
  { words: ENCRYPTED_PDF_HINT, older: ['Sift cannot open password-protected PDFs; save an unprotected copy and use sift extract.'] },
  { words: NEEDS_JS_HINT, older: ['Turn on rendering (--render auto, or "Run a page’s JavaScript" in Settings) so Sift runs the page in a browser.'] },
];

/** A stored hint in the words of the surface that shows it, whatever surface ran its job. */
export function hintOn(surface: Surface, hint: string): string {
  const known = BY_SURFACE.find((h) => h.words.cli === hint || h.words.app === hint || h.older.includes(hint));
  return known ? known.words[surface] : hint;
}
