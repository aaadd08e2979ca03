/**
 * Text from the web as a terminal shows it. A page's title or text, or a server's header
 * quoted in an error, may hold what a terminal acts on rather than shows: ESC starts CSI
 * (colours, clearing the screen), OSC 8 (a link to another address than its text) and OSC 52
 * (writing the user's clipboard); U+009B is CSI alone where C1 controls are read (xterm); BEL
 * rings; a CR not before an LF goes back to the line's start, so what follows writes over it.
 * The bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) reorder the rest
 * of the line: an override in a title turned the URL printed after it around (Trojan Source).
 * Each is written out as \xHH (\uHHHH) instead, so the user sees the page tried something; RTL
 * letters, and the marks U+200E and U+200F that reorder no run, are text and stay.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// Tab and line feed lay text out; a CR before an LF ends a line as a CRLF file writes it.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ACTED_ON = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

const written = (c: string): string => {
  const code = c.charCodeAt(0);
  return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`;
};

/** Every control character written out, line breaks too: a quote that must stay on its one line. */
export const oneLine = (s: string): string => s.replace(CONTROL, written);

/** Text with its lines and tabs, and every other control written out. */
export const forTerminal = (s: string): string => s.replace(ACTED_ON, written);

/** Whether a stream is a terminal (process.stdout's isTTY), where forTerminal is wanted. */
export const isTerminal = (stream: object): boolean => (stream as { isTTY?: unknown }).isTTY === true;
