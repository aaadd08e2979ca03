import { compileGrep, JqCompileError } from './fetch/compute';
import type { Options } from '../shared/types';
import { FetchError, parsePages, type Fetcher } from './fetch';
import { badOption } from './fetch/errors';
import { conflictMessage, optionsConflict } from '../shared/urllist/options';

/**
 * Checks a list's options before it is submitted, so a typo in a page range, a regular
 * expression or a jq program is reported once, up front, instead of on every target.
 * Throws the same 422 FetchError a target would fail with.
 */
export async function checkOptions(options: Options, fetcher: Pick<Fetcher, 'extractBuffer'>): Promise<void> {
  const problem = await optionsProblem(options, fetcher);
  if (problem) throw problem.error;
}

/**
 * checkOptions' first problem and the options it is about (a conflict is about the mode too), so
 * a form can mark those fields: the app said "invalid grep expression" under the whole form, and
 * a screen reader on the Grep box heard nothing wrong with it. Null when the options are fine.
 */
export async function optionsProblem(options: Options, fetcher: Pick<Fetcher, 'extractBuffer'>): Promise<{ error: unknown; fields: (keyof Options)[] } | null> {
  const clash = optionsConflict(options);
  if (clash) return { error: badOption(conflictMessage(clash), clash.hint), fields: [clash.key, 'mode'] };
  const checks: [keyof Options, () => unknown][] = [
    ['pages', () => parsePages(options.pages)],
    ['grep', () => options.grep !== undefined && compileGrep(options.grep)],
    ['jq', () => options.jq !== undefined && options.jq.trim() !== '' && checkJq(options.jq, fetcher)],
  ];
  for (const [field, check] of checks) {
    try {
      await check();
    } catch (error) {
      return { error, fields: [field] };
    }
  }
  return null;
}

/**
 * Compiles a jq program without running it. Inside a branch that never runs, a valid program
 * outputs nothing on any input, and jq still binds every name in it, so an unknown function or
 * variable fails as it would on a target (a definition that is never called, as this was
 * until 2026-12-03, left names unbound: `nosuchfn(1)` passed). jq's message quotes the lines
 * it failed at, which for an unclosed program are the wrapper's; the program alone then fails
 * to compile the same way on `null` and says it of its own text.
 */
async function checkJq(program: string, fetcher: Pick<Fetcher, 'extractBuffer'>): Promise<void> {
  const run = (jq: string) => fetcher.extractBuffer(Buffer.from('null'), 'application/json', { jq }, { signal: AbortSignal.timeout(10_000) });
  try {
    await run(`if false then (\n${program}\n) else empty end`);
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    const own = await run(program).then(
      () => undefined,
      (e: unknown) => e,
    );
    throw own instanceof JqCompileError ? own : err;
  }
}

/** How many distinct programs of a list's own lines are compiled up front: each takes a few ms; beyond, they fail on their targets. */
const LINE_PROGRAMS = 100;

/**
 * The jq programs of a list's lines (jq='…' after a URL) that do not compile, each with the
 * error its targets would fail with. The list-wide program is checked on its own (checkOptions);
 * a line's own was not, so a typo in a generated list of 1,000 lines fetched 1,000 pages and
 * failed each.
 */
export async function badLinePrograms(targets: readonly { options?: Options }[], listWide: string | undefined, fetcher: Pick<Fetcher, 'extractBuffer'>): Promise<Map<string, FetchError>> {
  const programs = new Set<string>();
  for (const t of targets) {
    const jq = t.options?.jq;
    if (jq !== undefined && jq.trim() !== '' && jq !== listWide) programs.add(jq);
    if (programs.size >= LINE_PROGRAMS) break;
  }
  const bad = new Map<string, FetchError>();
  for (const jq of programs) {
    try {
      await checkJq(jq, fetcher);
    } catch (err) {
      if (err instanceof JqCompileError) bad.set(jq, err);
      else throw err;
    }
  }
  return bad;
}

/**
 * The compile error of a jq program, or undefined when it compiles (or the check could not
 * finish: the target then says what it says). For a command of one program over its documents.
 */
export async function jqCompileError(program: string, fetcher: Pick<Fetcher, 'extractBuffer'>): Promise<JqCompileError | undefined> {
  try {
    await checkJq(program, fetcher);
    return undefined;
  } catch (err) {
    return err instanceof JqCompileError ? err : undefined;
  }
}
