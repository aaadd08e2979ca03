import { createHash } from 'node:crypto';
import type { Options, Target } from '../../shared/types';
import type { Caller } from './types';

function canonicalOptions(o: Options | undefined): Options | undefined {
  if (!o || typeof o !== 'object') return undefined;
  // Fixed key order and empty fields omitted, as Go's json.Marshal with omitempty.
  const c: Options = {};
  if (o.mode) c.mode = o.mode;
  if (o.question) c.question = o.question;
  if (o.pages) c.pages = o.pages;
  if (o.grep) c.grep = o.grep;
  if (o.jq) c.jq = o.jq;
  // context is the seed's *bool: false is a choice (no context), only undefined is empty.
  if (typeof o.context === 'boolean') c.context = o.context;
  if (o.recover) c.recover = true;
  // An explicit render=auto is a choice too: it overrides a Settings default of always/never.
  if (o.render) c.render = o.render;
  return Object.keys(c).length ? c : undefined;
}

/**
 * The targets as the runner stores them and keys them: fixed key order, empty options
 * omitted, and the URL without surrounding whitespace (which a URL parser drops anyway).
 * Never throws (seed 02 rule 9): a list that is not an array has no targets, and an entry
 * with no string URL (null, {}) is kept with an empty URL, which the fetch fails as a bad
 * URL on its own row, as Go's zero-value Target would be.
 */
export function canonicalTargets(targets: readonly Target[] | null | undefined): Target[] {
  if (!Array.isArray(targets)) return [];
  return (targets as readonly unknown[]).map((entry) => {
    const t = (entry && typeof entry === 'object' ? entry : {}) as Partial<Target>;
    const url = typeof t.url === 'string' ? t.url.trim() : '';
    const options = canonicalOptions(t.options);
    return options ? { url, options } : { url };
  });
}

/** sha256(caller + "\0" + canonical JSON), hex: same list, same key, however it was spelled. */
export function idemKey(caller: Caller, targets: readonly Target[]): string {
  return idemKeys([caller], targets)[0]!;
}

/** idemKey of the list for each of `callers`, the list made canonical once (~0.2 s for 100,000 targets). */
export function idemKeys(callers: readonly Caller[], targets: readonly Target[]): string[] {
  const canon = JSON.stringify(canonicalTargets(targets));
  return callers.map((caller) => createHash('sha256').update(caller.name).update('\0').update(canon).digest('hex'));
}
