/**
 * jq's error output in a person's words, on one line. jq writes a compile error as a block
 * for a terminal ("… at <top-level>, line 1, column 5:", the program's line, a caret under it,
 * then "jq: 1 compile error"), and a runtime error with the place in its input file, which
 * here is jq-wasm's "/dev/stdin". Stored as a target's error, the block broke the CLI's
 * progress line (the URL came after "jq: 1 compile error", on a line of its own) and its
 * "what to do" list, and "/dev/stdin:0" named a file the user never gave.
 */

/** One compile error: what, and where in the program. */
const COMPILE_ERROR = /^jq: (?:error: )?(.*?) at <top-level>, line (\d+), column (\d+):$/;
/** jq's closing count ("jq: 2 compile errors"), which the message says its own way. */
const COMPILE_COUNT = /^jq: \d+ compile errors?$/;
/** The caret line under the program's line: its span is what jq points at. */
const CARET = /^( *)(\^+)$/;

/** At most this many compile errors are named; a program with more has one mistake that cascades. */
const SHOWN_ERRORS = 3;

/**
 * A compile error: each of jq's errors as "what at column C" (or "line L, column C" in a
 * program of several lines), with the text jq points at, e.g.
 * `foo/0 is not defined at column 6 ("foo"); bar/0 is not defined at column 12 ("bar")`.
 */
export function jqCompileMessage(stderr: string, program: string): string {
  const lines = stderr.split('\n');
  const oneLine = !program.includes('\n');
  const errors: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const m = COMPILE_ERROR.exec(line);
    if (m) {
      const [, what = '', row = '', col = ''] = m;
      // jq quotes the program's line (indented 4) and underlines the span it means.
      const quoted = lines[i + 1]?.slice(4) ?? '';
      const caret = CARET.exec(lines[i + 2] ?? '');
      const span = caret ? quoted.slice((caret[1]?.length ?? 4) - 4, (caret[1]?.length ?? 4) - 4 + (caret[2]?.length ?? 0)).trim() : '';
      const where = oneLine ? `column ${col}` : `line ${row}, column ${col}`;
      const { said, named } = inWords(what, span);
      errors.push(`${said} at ${where}${span && !named ? ` (${JSON.stringify(span.length > 40 ? `${span.slice(0, 39)}…` : span)})` : ''}`);
      if (caret) i += 2;
      continue;
    }
    const own = /^jq: (?:error: )?(.+)$/.exec(line);
    // Errors with no place (a module that is not there) are said as they are.
    if (own?.[1] && !COMPILE_COUNT.test(line)) errors.push(own[1]);
  }
  if (errors.length === 0) return stderr.trim().replace(/\s*\n\s*/g, ' ');
  const more = errors.length > SHOWN_ERRORS ? ` (and ${errors.length - SHOWN_ERRORS} more)` : '';
  return `${errors.slice(0, SHOWN_ERRORS).join('; ')}${more}`;
}

/**
 * The names jq's parser gives the tokens it wanted or found, in words: "unexpected
 * INVALID_CHARACTER" of 'x' (a string in single quotes, as a shell writes it) or "expecting
 * QQSTRING_TEXT or QQSTRING_INTERP_START or QQSTRING_END" of a string left open named the
 * grammar's symbols, not the program's text.
 */
const TOKEN_WORDS: [RegExp, string][] = [
  [/QQSTRING_TEXT or QQSTRING_INTERP_START or QQSTRING_END/g, 'the closing " of a string'],
  [/\bend of file\b/g, 'end of the program'],
  [/\bQQSTRING_START\b/g, 'string'],
  [/\bQQSTRING_INTERP_END\b/g, 'the ) that closes \\(…)'],
  [/\bQQSTRING_(?:TEXT|INTERP_START|END)\b/g, 'the rest of a string'],
  [/\bIDENT\b/g, 'name'],
  [/\bFIELD\b/g, 'field (.name)'],
  [/\bBINDING\b/g, 'variable ($name)'],
  [/\bLITERAL\b/g, 'number'],
  [/\bFORMAT\b/g, 'format (@name)'],
];

/** A label jq names as a variable of its own ("$*label-out is not defined" of `break $out` with no `label $out`). */
const LABEL_UNDEFINED = /^\$\*label-(\S+) is not defined$/;

/**
 * One compile error's words for a person, and whether they already quote the text jq points at
 * (`span`), so the caller does not quote it again.
 */
function inWords(what: string, span: string): { said: string; named: boolean } {
  const label = LABEL_UNDEFINED.exec(what);
  if (label) return { said: `break $${label[1]} has no label $${label[1]} around it`, named: false };
  let said = what;
  let named = false;
  // A character the lexer takes for no token (a quote, a stray bracket, a letter outside ASCII): the character itself.
  if (/\bunexpected INVALID_CHARACTER\b/.test(said)) {
    const ch = [...span].length === 1 ? span : '';
    said = said.replace(/\bunexpected INVALID_CHARACTER\b/, ch ? `unexpected ${JSON.stringify(ch)}` : 'unexpected character');
    if (ch === "'") said += ` (jq writes strings in double quotes: "text", not 'text')`;
    named = ch !== '';
  }
  for (const [re, words] of TOKEN_WORDS) said = said.replace(re, words);
  return { said, named };
}

/**
 * `input` with no value left to read (in one document, or on the last line of JSON Lines):
 * jq says "No more inputs", and jq-wasm, whose reader ends by breaking out of jq's loop, says
 * "break", a word that told the user nothing of input.
 */
const JQ_WASM_NO_INPUT = 'break';
export const NO_MORE_INPUTS = 'no more inputs: input reads the JSON value after the current one, and there was none left';

/** A runtime error line: "jq: error (at /dev/stdin:N): what", or "… (at /dev/stdin:N) (not a string): value". */
const RUN_ERROR = /^jq: error \(at [^)]*?:(\d+)\)(:| \(not a string\):) ?(.*)$/;

/**
 * Runtime errors: what failed, without jq-wasm's input file. On JSON Lines, the place is the
 * line of the record that failed (jq counts lines up to the end of the value it read), which
 * a person can look up; in one document it is the line where the document ends, whatever the
 * value, so it is left out. `failed` are jq's "jq: error …" lines, one per input that failed.
 */
export function jqRunMessage(failed: string[], jsonLines: boolean): string {
  const read = failed.map((l) => {
    const m = RUN_ERROR.exec(l);
    if (!m) return { line: undefined, what: l.replace(/^jq: (?:error: )?/, '') };
    // A value given to error() that is not a string: jq prints it as JSON, after "(not a string)".
    const what = m[2] === ':' ? (m[3] ?? '') : `error(${m[3] ?? ''})`;
    return { line: Number(m[1]), what: what === JQ_WASM_NO_INPUT ? NO_MORE_INPUTS : what };
  });
  const first = read[0];
  if (!first) return '';
  if (!jsonLines || first.line === undefined) return read.length > 1 ? `${first.what} (${read.length} inputs failed)` : first.what;
  const lineNos = read.map((r) => r.line).filter((n): n is number => n !== undefined);
  if (read.length === 1) return `line ${first.line}: ${first.what}`;
  const shown = lineNos.slice(0, 5).join(', ');
  return `line ${first.line}: ${first.what} (${read.length} records failed, on lines ${shown}${lineNos.length > 5 ? ', …' : ''})`;
}
