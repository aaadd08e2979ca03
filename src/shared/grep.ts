/**
 * A grep option as JavaScript compiles it: one place, so the list reader, the up-front check
 * and the compute worker agree on what is valid and what it matches.
 *
 * A leading `(?i)` ignores case, as `grep -i` does and as PCRE, Python, Go and Java write it
 * inline: the first thing people try, and JavaScript takes inline flags only from Node 23
 * (V8 12.5). The u flag is used where the pattern takes it (`\p{L}`, code points beyond
 * U+FFFF), else none: a pattern valid only without it ("\-") is still a valid expression.
 */
export const IGNORE_CASE = '(?i)';

export interface GrepParts {
  pattern: string;
  flags: string;
}

/** The pattern and flags of a grep option; throws the RegExp's SyntaxError when it is not valid. */
export function grepParts(grep: string): GrepParts {
  const ignoreCase = grep.startsWith(IGNORE_CASE);
  const pattern = ignoreCase ? grep.slice(IGNORE_CASE.length) : grep;
  const flags = ignoreCase ? 'i' : '';
  try {
    new RegExp(pattern, `${flags}u`);
    return { pattern, flags: `${flags}u` };
  } catch {
    new RegExp(pattern, flags);
    return { pattern, flags };
  }
}

/** What a user is told of an invalid grep option: what it takes, with an example of each kind. */
export const GREP_HINT = 'grep takes a JavaScript regular expression, e.g. "net (revenue|income)"; (?i) at its start ignores case.';
