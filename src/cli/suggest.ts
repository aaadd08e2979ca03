/**
 * Edits between a and b: insertions, deletions, substitutions and swaps of two neighbours
 * (optimal string alignment), so `fecth` is one edit from `fetch`, as a typing slip is.
 */
function edits(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The name the user most likely meant by `given` (a command or an option name, without
 * dashes), or undefined when none is close: the same letters in another case, else one edit
 * away (`--jsn`), two for names of 5 letters or more (`--fromat`, `--allow-privte`). One
 * letter alone (`-o`) is too little to guess from: one edit makes it any short name.
 */
export function closestName(given: string, names: readonly string[]): string | undefined {
  const g = given.toLowerCase();
  const same = names.find((n) => n.toLowerCase() === g);
  if (same) return same;
  if (g.length < 2) return undefined;
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = edits(g, name.toLowerCase());
    const allowed = Math.min(name.length, g.length) >= 5 ? 2 : 1;
    if (d <= allowed && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}
