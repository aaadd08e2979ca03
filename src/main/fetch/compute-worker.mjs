// The compute worker: jq programs and grep expressions run here, in a thread the pipeline
// can terminate, because a jq program can loop forever and a regular expression can
// backtrack for longer than the universe (^(a+)+$ on 40 a's and a b).
import { parentPort } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';

// V8's own guard against such expressions: past a number of backtracks, it runs the match
// again on its linear-time engine, which gives the same answer (^(a+)+$ on 50,000 a's and a
// "!": 0.2 s instead of a target's whole deadline). The flag acts only where backtracking
// has already run away, so every other expression, in this thread or any other, runs as
// before. Node 20's linear engine takes no u flag, so grep() below asks for it without u
// where that means the same (see sameWithoutU). V8's flags are the process's: in the app the
// flag comes on Electron's command line (scripts/start.mjs), since Electron's V8 may not take
// a change once it runs; under Node (the CLI, the tests) it is set here.
if (!process.versions.electron) setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

const require = createRequire(import.meta.url);
let jqHandle;

/** Characters of JSON past which a trap is the document's size, not its depth or the program: 30 MB read in 256 MB, 38 MB did not. */
const JQ_LARGE = 30 * 2 ** 20;

/**
 * Values past which a trap is the document's size: jq 1.8 keeps each number's literal and
 * spends memory per value, not per byte. `length` failed on flat arrays of 2.0 million values
 * (number pairs, 8.0 MB), 2.4 million (integers, 13.7 MB; strings, 58 MB) and records of 1.9
 * million (16.5 MB), and read 1.8 to 2.4 million; 1.5 million leaves a program a quarter of it.
 */
const JQ_MANY_VALUES = 1_500_000;

/**
 * Levels past which a trap may be the nesting: 1,039 real JSON files (the corpora, node_modules)
 * nest at most 34 levels, and printing an array nested 700 levels trapped where 500 did not.
 */
const JQ_DEEP = 100;

/** How deep a JSON text nests and how many values it holds, read in one pass (strings skipped). */
function shapeOf(json) {
  let depth = 0;
  let deepest = 0;
  let values = 0;
  let inScalar = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      values++;
      inScalar = false;
      for (i++; i < json.length && json.charCodeAt(i) !== 0x22; i++) if (json.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      values++;
      deepest = Math.max(deepest, ++depth);
      inScalar = false;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      inScalar = false;
    } else if (c === 0x2c || c === 0x3a || c <= 0x20) inScalar = false;
    else if (!inScalar) {
      values++;
      inScalar = true;
    }
  }
  return { deepest, values };
}

/** What a trap (out of memory or stack) says, by the document's shape: its size, its depth, else the program. */
function trapReply(input) {
  const { deepest, values } = shapeOf(input);
  if (input.length > JQ_LARGE || values > JQ_MANY_VALUES) {
    const mb = input.length / 2 ** 20;
    const size = mb < 10 ? mb.toFixed(1).replace(/\.0$/, '') : String(Math.round(mb));
    return { error: `out of memory: jq has 256 MB here, and reading a JSON document of ${size} MB (${(values / 1e6).toFixed(1)} million values) takes more`, cause: 'size' };
  }
  if (deepest > JQ_DEEP) return { error: `out of memory or stack: the document is nested ${deepest} levels deep, deeper than jq here can walk or print (about 500)`, cause: 'deep' };
  return { error: 'out of memory: the program built a value too large for jq here, or never ended', cause: 'trap' };
}

// jq-wasm's runtime writes "Aborted(…)" to stderr when a program traps (out of memory, a
// stack overflow), before the trap reaches jq() below, which answers it as the target's
// error. The line came before that error on the terminal, in no words of Sift's.
const consoleError = console.error;
console.error = (...args) => {
  if (typeof args[0] === 'string' && args[0].startsWith('Aborted(')) return;
  consoleError(...args);
};

/** The task's own work begins: its time limit (WorkerPool.run) counts from here, not from the thread's start or jq's loading. */
const started = (id) => parentPort.postMessage({ id, started: true });

async function jq({ id, input, program, raw }) {
  if (!jqHandle) {
    const { loadJq } = require('jq-wasm');
    jqHandle = await loadJq();
  }
  started(id);
  let out;
  try {
    // raw: strings printed as they are, as `jq -r` prints them (a list of URLs, one a line).
    out = jqHandle.raw(input, program, raw ? ['-r'] : undefined);
  } catch {
    // A WebAssembly trap (a JSON document 10,000 levels deep overflows jq's stack) leaves the
    // instance's memory corrupt: every later program would fail the same way. Start afresh.
    jqHandle = undefined;
    // The trap's own words ("Aborted(). Build with -sASSERTIONS for more info.") are the
    // WebAssembly runtime's, of no use to the person who wrote the program. jq-wasm's memory
    // ends at 256 MB, which a document of many values fills on its own (a 45 MB list of
    // 250,000 records failed even `length`): no program can help that one.
    return trapReply(input);
  }
  const { stdout, stderr, exitCode } = out;
  // jq's own words; compute.ts (jq-message.ts) puts them on one line.
  if (/compile error/.test(stderr)) return { error: stderr.trim(), cause: 'compile' };
  // jq goes on to the next input after one fails (JSON Lines), and jq-wasm's exit code is the
  // last input's: `.a + 1` over {"a":1}, {"a":"two"}, {"a":3} exited 0 with 2 and 4, and the
  // record that failed was left out without a word. jq itself exits 5 there.
  // Found where it is on its line: the stderr builtin writes its value with no line end, so
  // `stderr | error("boom")` put the error after the value, and it was read as halt_error's text.
  const failed = stderr
    .split('\n')
    .map((l) => l.slice(Math.max(0, l.indexOf('jq: error'))))
    .filter((l) => l.startsWith('jq: error'));
  if (failed.length > 0) return { error: failed.join('\n'), cause: 'run' };
  // jq's own reader refused what JSON.parse took: a document nested past jq's depth limit.
  const parse = stderr.split('\n').find((l) => l.startsWith('jq: parse error'));
  if (parse) return { error: parse, cause: 'parse' };
  // halt_error: the program stopped itself, its input (a string as it is, else JSON) the whole
  // message, and the exit status its argument (5 unless given). Read as jq's error lines, a
  // message of two lines was "line one (2 inputs failed)".
  if (exitCode !== 0 && stderr && !stderr.startsWith('jq: ')) return { error: stderr.trim(), cause: 'halt', exitCode };
  if (exitCode !== 0 && stderr) return { error: stderr.trim(), cause: 'run' };
  return { output: stdout.replace(/\n$/, '') };
}

const SURROGATE = /[\uD800-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- every character past ASCII
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * Whether an expression compiled with the u flag matches as it does without it on a line
 * with no character beyond U+FFFF: it means the same when it is also valid without u and
 * names no property (\p{L}, which without u is the letters "p{L}"), no \u{…} code point and
 * no character beyond U+FFFF itself. The flag then changes only how such characters count.
 */
function sameWithoutU(pattern, flags) {
  if (!flags.includes('u') || /\\[pP]|\\u\{|[\uD800-\uDFFF]/.test(pattern)) return false;
  // Ignoring case, a letter past ASCII in the pattern may fold to one in it (ſ to s, the Kelvin sign to k) only with u.
  if (flags.includes('i') && NOT_ASCII.test(pattern)) return false;
  try {
    new RegExp(pattern, flags.replace('u', ''));
    return true;
  } catch {
    return false;
  }
}

// Turkish sets the capital of i with a dot (İ) and the small of I without (ı), and no case
// folding joins them to I and i: (?i)istanbul missed "İstanbul", (?i)İstanbul found no
// "ISTANBUL". Ignoring case, both are an i, in the pattern and in a line that has one, as
// Python's re reads them; one character for one, so the line found is the line as it is.
const TURKISH_I = /[\u0130\u0131]/;
const dotlessI = (s) => (TURKISH_I.test(s) ? s.replace(/[\u0130\u0131]/g, 'i') : s);

/**
 * Chinese and Japanese set no space between words, and a PDF's line (or a text wrapped at 80
 * columns) ends anywhere, inside a word too: 整体方案 matched neither "…部件的整" nor
 * "体方案…" under it. Two lines whose break falls between two wide characters (the class
 * segment-breaks.ts gives, the rule a browser joins such lines by) are matched as one line
 * too, and a match across the break keeps both. The hits, in order, and how many matching
 * lines they are: the two halves of a broken line count once, as grep -c counts the line
 * joined (整体方案 over a break was "2 matches").
 */
function acrossWideBreaks(lines, hits, wideClass, re) {
  const ends = new RegExp(`${wideClass}[ \\t]*$`, 'u');
  const starts = new RegExp(`^[ \\t]*${wideClass}`, 'u');
  const all = new RegExp(re.source, `${re.flags}g`);
  const found = new Set(hits);
  // Breaks matched across where neither line matched alone: two lines kept, one line matching.
  let across = 0;
  for (let i = 0; i + 1 < lines.length; i++) {
    if ((found.has(i) && found.has(i + 1)) || !ends.test(lines[i]) || !starts.test(lines[i + 1])) continue;
    const head = lines[i].replace(/[ \t]+$/, '');
    const joined = head + lines[i + 1].replace(/^[ \t]+/, '');
    all.lastIndex = 0;
    for (let m = all.exec(joined); m !== null && m.index < head.length; m = all.exec(joined)) {
      if (m.index + m[0].length > head.length) {
        if (!found.has(i) && !found.has(i + 1)) across++;
        found.add(i);
        found.add(i + 1);
        break;
      }
      if (m[0].length === 0) all.lastIndex++;
    }
  }
  if (found.size === hits.length) return { hits, count: hits.length };
  return { hits: [...found].sort((a, b) => a - b), count: hits.length + across };
}

/** [output line from 1, column] of each long matching line, by the text's index each output line had (`from`). */
function columnsOf(from, columns) {
  if (columns.size === 0) return {};
  const out = [];
  from.forEach((i, k) => {
    if (columns.has(i)) out.push([k + 1, columns.get(i)]);
  });
  return { columns: out };
}

// With origins, also where the output came from: `hits`, the index of every matching line
// of the text, and `from`, the index each output line had in the text (-1 for a "--").
// `read`, when given, is the text as a reader sees it and types it, line for line (a page's
// Markdown with a link's text for the link, ’ as '): a line matches when it or its read form
// does, so "Boeing's 787" finds "[Boeing](https://…)’s 787" as the page shows it.
//
// `words`, when given, is the pattern with \w, \b and their negations for every script
// (unicodeWords in src/shared/grep.ts). A line of ASCII only is matched by the pattern as
// written, which means the same there and keeps V8's linear-time rescue (which takes no \p{…});
// any other line by `words`.
function grep({ text, read, pattern, words, flags, context, origins, wideClass, longLine }) {
  const ignoreCase = flags.includes('i');
  if (ignoreCase) {
    pattern = dotlessI(pattern);
    if (words !== undefined) words = dotlessI(words);
  }
  let re;
  let wide;
  try {
    re = new RegExp(pattern, flags);
    wide = words === undefined ? undefined : new RegExp(words, flags);
  } catch (err) {
    return { error: String(err.message || err) };
  }
  const bmp = sameWithoutU(pattern, flags) ? new RegExp(pattern, flags.replace('u', '')) : re;
  const lines = text.split(/\r?\n/);
  let readLines = read === undefined ? undefined : read.split(/\r?\n/);
  if (readLines && readLines.length !== lines.length) readLines = undefined;
  // Without u, ignoring case folds by toUpperCase, which leaves a letter whose other case is
  // ASCII or two letters as it is: (?i)straße missed "STRAẞE", (?i)state "ſtate". A line past
  // ASCII is matched with u then.
  // Where the match starts, -1 for none: exec costs what test does.
  const matchAt = (line) => {
    const r = wide && NOT_ASCII.test(line) ? wide : bmp !== re && !SURROGATE.test(line) && !(ignoreCase && NOT_ASCII.test(line)) ? bmp : re;
    r.lastIndex = 0;
    return r.exec(line)?.index ?? -1;
  };
  // dotlessI keeps one character for one: its index is the line's.
  const holdsAt = (line) => {
    const at = matchAt(line);
    return at >= 0 || !(ignoreCase && TURKISH_I.test(line)) ? at : matchAt(dotlessI(line));
  };
  let hits = [];
  // Where the match is on each matching line longer than `longLine`, by index in the text: the
  // result pane shows such a line around it (src/shared/shown.ts). None when only the read
  // form matched, whose indexes are not the line's.
  const columns = new Map();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const at = holdsAt(line);
    if (at >= 0 || (readLines && readLines[i] !== line && holdsAt(readLines[i]) >= 0)) hits.push(i);
    if (at >= 0 && longLine !== undefined && line.length > longLine) columns.set(i, at);
  }
  let count = hits.length;
  if (wideClass) ({ hits, count } = acrossWideBreaks(lines, hits, wideClass, wide ?? re));
  const where = (from) => ({ ...(origins ? { hits, from } : {}), ...columnsOf(from, columns) });
  if (!context) return { output: hits.map((i) => lines[i]).join('\n'), matches: count, ...where(hits) };
  // grep -C 2: each hit with 2 lines either side; overlapping windows merge; groups are
  // separated by a line "--".
  const C = 2;
  const out = [];
  const from = [];
  let end = -1;
  for (const i of hits) {
    const first = Math.max(0, i - C);
    const last = Math.min(lines.length - 1, i + C);
    if (end >= 0 && first > end + 1) {
      out.push('--');
      from.push(-1);
    }
    for (let j = Math.max(first, end + 1); j <= last; j++) {
      out.push(lines[j]);
      from.push(j);
    }
    end = Math.max(end, last);
  }
  return { output: out.join('\n'), matches: count, ...where(from) };
}

parentPort.on('message', async (msg) => {
  let reply;
  try {
    reply = msg.op === 'jq' ? await jq(msg) : msg.op === 'grep' ? (started(msg.id), grep(msg)) : { error: `unknown op ${msg.op}` };
  } catch (err) {
    reply = { error: String((err && err.message) || err) };
  }
  parentPort.postMessage({ id: msg.id, ...reply });
});
