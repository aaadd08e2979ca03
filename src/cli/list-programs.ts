/**
 * A list's jq programs compiled before anything is fetched: sift batch before it submits, sift
 * parse so the lines it prints are the lines batch runs. Apart from list-input.ts because it
 * loads the fetcher, which sift parse of a list without a program never needs.
 */
import type { ParsedList, ParsedTarget } from '../shared/urllist';
import { badLinePrograms, checkOptions } from '../main/check-options';
import type { Fetcher } from '../main/fetch';
import { SiftError } from '../shared/errors';
import { UsageError } from './io';

/** A --jq program that does not compile, as the usage error it is: it would fail every target. */
export async function checkListWideJq(jq: string | undefined, fetcher: Pick<Fetcher, 'extractBuffer'>): Promise<void> {
  if (jq === undefined) return;
  try {
    await checkOptions({ jq }, fetcher);
  } catch (err) {
    // With its hint, as a target's failure has it: what to do is half the message.
    if (err instanceof SiftError) throw new UsageError(`--jq: ${err.message.replace(/^jq: /, '')}${err.hint ? `\n  ${err.hint}` : ''}`);
    throw err;
  }
}

/**
 * Moves the targets whose own jq program does not compile to the list's invalid lines, as a
 * line's bad grep or pages is (the parser checks those), so `sift parse` shows the lines
 * `sift batch` runs. Returns what to do, once for each kind of mistake ('' when all compile).
 */
export async function dropBadLinePrograms(list: ParsedList, listWide: string | undefined, fetcher: Pick<Fetcher, 'extractBuffer'>): Promise<string> {
  const bad = await badLinePrograms(list.targets, listWide, fetcher);
  if (bad.size === 0) return '';
  const lineJq = (t: ParsedTarget) => (t.options?.jq !== undefined ? bad.get(t.options.jq) : undefined);
  const invalid = list.targets.flatMap((t) => {
    const err = lineJq(t);
    return err ? [{ line: t.line, text: t.url, reason: err.message }] : [];
  });
  list.targets = list.targets.filter((t) => !lineJq(t));
  list.invalid = [...list.invalid, ...invalid];
  return [...new Set([...bad.values()].map((e) => e.hint))]
    .sort((a, b) => b.length - a.length)
    .filter((h, i, all) => !all.slice(0, i).some((longer) => longer.startsWith(h)))
    .map((h) => `  ${h}\n`)
    .join('');
}
