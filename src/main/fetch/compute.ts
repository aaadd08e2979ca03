import { FetchError } from './errors';
import { defaultFetchSettings } from './settings';
import { fractionsAsTyped, GREP_HINT, grepParts, grepProblem, unicodeWords, type GrepParts } from '../../shared/grep';
import { MAX_SHOWN_LINE } from '../../shared/shown';
import { WIDE_CLASS } from './segment-breaks';
import { clip } from '../../shared/urllist/url';

import { jqCompileMessage, jqRunMessage, NO_MORE_INPUTS } from './jq-message';
import { WorkerCrash, WorkerPool, workerScript } from './worker-slot';

/** A grep option's pattern and flags; an invalid one fails as the target (or the up-front check) reports it. */
export function compileGrep(grep: string): GrepParts {
  const why = grepProblem(grep);
  if (why) throw new FetchError(422, `invalid grep expression "${clip(grep, 60)}": ${why}`, GREP_HINT, 'bad_option');
  return grepParts(grep);
}

/** A jq program stopped at its time limit: the program's to change (or the limit), not the site's. */
function jqTooLong(limitMs: number): FetchError {
  const seconds = Math.round(limitMs / 100) / 10;
  return new FetchError(
    422,
    `jq: the program was still running after ${seconds} s, the time Sift gives a jq program`,
    `Look for a part that never ends (repeat, range with no end, recurse or until with no stop); on a large document, select what you need before the costly step. The limit is in Settings, "Time a jq program or grep pattern may run".`,
    'bad_option',
  );
}

/**
 * A grep pattern stopped at the same limit. A pattern that backtracks without end runs again
 * on V8's linear-time engine (compute-worker.mjs), except one with a backreference (\1, \k<name>),
 * which that engine cannot run: ^(a+)+\1$ on a line of 40 a's and a "!" ran to the target's
 * deadline (210 s), for every target of the job.
 */
function grepTooLong(limitMs: number): FetchError {
  const seconds = Math.round(limitMs / 100) / 10;
  return new FetchError(
    422,
    `grep: the pattern was still running after ${seconds} s on this document, the time Sift gives a pattern`,
    `A backreference (\\1) with repeats inside repeats ((a+)+) tries every way to split a line; make the repeated part match less, or do without the backreference. The limit is in Settings, "Time a jq program or grep pattern may run".`,
    'bad_option',
  );
}

const JQ_SYNTAX = 'Check the jq program; https://jqlang.org/manual/ has the syntax.';
const JQ_NO_MODULES = 'Sift runs jq with no module files to import or include: define the functions in the program itself (def name: …;).';
const JQ_NO_ARGS = 'Sift runs jq without --arg: bind a value in the program itself ("Berlin" as $city | …, or {"min": 3} as $opts | …).';
/** A program that compiled and then failed on what this document holds (on one record of JSON Lines, say). */
const JQ_RUN_ERROR = 'The program failed on a value of this document; "?" or try … catch skips the values it cannot take (.a? // empty, try (.a + 1) catch empty).';
const JQ_NO_INPUT = 'In one JSON document there is no value after it; in JSON Lines, the last line has none. first(inputs) or (input? // null) gives nothing (or null) there instead of failing.';
const JQ_HALT = 'The program stopped itself with halt_error and this message, so the target failed; to leave a value out and go on, use empty or select(…) in its place.';
const JQ_TRAP = 'Select what you need before the step that builds a large value, and look for a part that never ends (repeat, range with no end, recurse with no stop).';
const JQ_DEEP = 'Select a part nested less deeply (.a.b[0]) before printing or walking it, or drop the jq option to get the JSON laid out.';
/** What fills jq's 256 MB is the values: about 2 million of them, 8 MB of small numbers or 30 MB of records (compute-worker.mjs). */
const JQ_ROOM = 'Sift runs jq on JSON documents of up to about 2 million values (8 to 30 MB)';
const JQ_TOO_LARGE = `${JQ_ROOM}; fetch this one in mode raw (--mode raw) and run jq on the file it gives.`;

/**
 * A JSON document too large for jq's 256 MB here. Its hint is a download's; a local file is
 * already the file to run jq on (forFile). Not refused by size before jq runs: what fills the
 * 256 MB is the values, not the bytes (28.7 MB of number pairs failed, 47.8 MB of long strings
 * and 36.8 MB of records read).
 */
export class JqTooLarge extends FetchError {
  constructor(msg: string, hint = JQ_TOO_LARGE) {
    super(422, msg, hint, 'bad_option');
  }
  forFile(): JqTooLarge {
    return new JqTooLarge(this.message, `${JQ_ROOM}: run jq itself on the file (jq PROGRAM FILE), split it into smaller files, or drop the jq option to get the JSON laid out.`);
  }
  /** Piped in (`curl … | sift extract -`), there is no file to run jq on: the pipe goes to jq. */
  forStdin(): JqTooLarge {
    return new JqTooLarge(this.message, `${JQ_ROOM}: pipe it to jq itself (… | jq PROGRAM) in place of sift extract, or drop the jq option to get the JSON laid out.`);
  }
}

/** A jq program that does not compile: the same on every document, so it can be checked up front. */
export class JqCompileError extends FetchError {
  constructor(msg: string, hint: string) {
    super(422, msg, hint, 'bad_option');
  }
}

/**
 * jq's own reader refused the document (its words, without "jq: parse error: ", in `why`): the
 * document's failure. The fetcher says it in its own words where it checked the JSON first.
 */
export class JqParseError extends FetchError {
  constructor(
    msg: string,
    hint: string,
    readonly why: string,
  ) {
    super(422, msg, hint, 'bad_document');
  }
}

interface Reply {
  output?: string;
  error?: string;
  /** What made jq fail: its program would not compile, it failed on a value, it trapped (memory or stack) on the program or on a deep document, the document is too large for it. */
  cause?: 'compile' | 'run' | 'trap' | 'deep' | 'size' | 'parse' | 'halt';
  /** With cause halt: the exit status halt_error gave. */
  exitCode?: number;
  matches?: number;
  hits?: number[];
  from?: number[];
  columns?: [number, number][];
}

export interface GrepOutput {
  output: string;
  matches: number;
  /** With origins: the index of each matching line in the text, and of each output line (-1 for a "--"). */
  hits?: number[];
  from?: number[];
  /** [output line from 1, column] of the first match on each matching line longer than MAX_SHOWN_LINE. */
  columns?: [number, number][];
}

/**
 * A small pool of compute workers for jq and grep. Two threads: the machines Sift runs on
 * have 2+ cores, and one stuck program must not hold up every other target until its deadline.
 */
export class ComputePool {
  private readonly pool: WorkerPool;
  /**
   * @param jqLimitMs how long one jq program, or one grep of a document, may run
   * (FetchSettings.jqLimitMs, read at each run so a change in Settings applies to the next).
   */
  constructor(
    size = 2,
    private readonly jqLimitMs: () => number = () => defaultFetchSettings().jqLimitMs,
  ) {
    this.pool = new WorkerPool(workerScript('compute-worker.mjs'), size);
  }

  private async run(msg: Record<string, unknown>, signal: AbortSignal, what: string, limitMs?: number): Promise<Reply> {
    try {
      return await this.pool.run<Reply>(msg, signal, limitMs);
    } catch (err) {
      if (err instanceof WorkerCrash) {
        throw new FetchError(422, `${what} failed: ${/memory|code 1\b/i.test(err.message) ? 'it used too much memory' : err.message}`, 'Simplify the program or expression.', 'bad_option');
      }
      throw err;
    }
  }

  /**
   * jq's output for a JSON text (jq-wasm: jq 1.8.2 itself, compiled to WebAssembly).
   * `jsonLines`: the text is JSON Lines, one input a line, so a failure can name its line.
   * `raw`: strings come out as they are, not as JSON strings, as `jq -r` prints them.
   */
  async jq(input: string, program: string, signal: AbortSignal, jsonLines = false, raw = false): Promise<string> {
    // jq runs in a worker thread, stopped by terminating it (a WebAssembly loop cannot be
    // interrupted from inside), so a program that never ends (repeat(1), last(range(1e12)))
    // is stopped at this limit instead of holding a thread until the target's deadline.
    const limitMs = this.jqLimitMs();
    let r: Reply;
    try {
      r = await this.run({ op: 'jq', input, program, raw }, signal, 'jq', limitMs);
    } catch (err) {
      if (!signal.aborted && err instanceof DOMException && err.name === 'TimeoutError') throw jqTooLong(limitMs);
      throw err;
    }
    if (r.error !== undefined) {
      if (r.cause === 'compile') {
        const msg = jqCompileMessage(r.error, program);
        // jq's --arg and --argjson have no place in a URL list: the value goes in the program.
        const hint = /\$[A-Za-z_]\w* is not defined/.test(msg) ? `${JQ_SYNTAX} ${JQ_NO_ARGS}` : /^module not found/.test(msg) ? JQ_NO_MODULES : JQ_SYNTAX;
        throw new JqCompileError(`jq: ${msg}`, hint);
      }
      if (r.cause === 'parse') {
        // The document, not the program: a document nested past jq's 10,000 levels was "The
        // program failed on a value of this document; "?" or try … catch skips …".
        const deep = /depth limit/i.test(r.error);
        const why = r.error.replace(/^jq: (parse error: )?/, '');
        throw new JqParseError(
          `jq: ${deep ? 'the document is nested deeper than jq reads (10,000 levels)' : 'jq cannot read this document'}: ${why}`,
          `${deep ? 'No jq program can read it. ' : ''}Without jq the document comes back as it was sent.`,
          why,
        );
      }
      if (r.cause === 'halt') {
        // The program's own message, on one line: it said why it stopped.
        const said = r.error.replace(/\s+/g, ' ');
        throw new FetchError(422, `jq: the program stopped with halt_error (exit status ${r.exitCode ?? 5}): ${clip(said, 300)}`, JQ_HALT, 'bad_option');
      }
      const msg = r.cause === 'run' ? jqRunMessage(r.error.split('\n'), jsonLines) : r.error.replace(/^jq: (error: )?/, '');
      if (r.cause === 'size') throw new JqTooLarge(`jq: ${msg}`);
      const hint = r.cause === 'trap' ? JQ_TRAP : r.cause === 'deep' ? JQ_DEEP : r.cause === 'run' ? (msg.includes(NO_MORE_INPUTS) ? JQ_NO_INPUT : JQ_RUN_ERROR) : JQ_SYNTAX;
      throw new FetchError(422, `jq: ${msg}`, hint, 'bad_option');
    }
    return r.output ?? '';
  }

  /**
   * The lines matching a JavaScript regular expression, with ±2 lines of context when asked.
   * @param read the text as a reader sees it, line for line (a page's Markdown without its
   * links' addresses, markdownAsRead): a line matches when it or its read form does.
   */
  async grep(text: string, grep: string, context: boolean, signal: AbortSignal, origins = false, read?: string): Promise<GrepOutput> {
    const { pattern: asGiven, flags } = compileGrep(grep);
    let pattern = fractionsAsTyped(asGiven);
    try {
      // A fraction where a pattern reads no character of its own (\p{½}, a{½}) is left as given.
      if (pattern !== asGiven) new RegExp(pattern, flags);
    } catch {
      pattern = asGiven;
    }
    let words = flags.includes('u') ? unicodeWords(pattern) : pattern;
    try {
      if (words !== pattern) new RegExp(words, flags);
    } catch {
      words = pattern;
    }
    const limitMs = this.jqLimitMs();
    let r: Reply;
    try {
      r = await this.run({ op: 'grep', text, read, pattern, words: words === pattern ? undefined : words, flags, context, origins, wideClass: WIDE_CLASS, longLine: MAX_SHOWN_LINE }, signal, 'grep', limitMs);
    } catch (err) {
      if (!signal.aborted && err instanceof DOMException && err.name === 'TimeoutError') throw grepTooLong(limitMs);
      throw err;
    }
    if (r.error !== undefined) throw new FetchError(422, `invalid grep expression: ${r.error}`, GREP_HINT, 'bad_option');
    const out: GrepOutput = { output: r.output ?? '', matches: r.matches ?? 0 };
    if (r.hits && r.from) Object.assign(out, { hits: r.hits, from: r.from });
    if (r.columns) out.columns = r.columns;
    return out;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
