// The command line's units (its output is a fixed surface, SPEC §6): "kB" for 1,024 bytes, as
// it has always printed, which the app now writes too; it wrote "KB".
const UNITS = ['kB', 'MB', 'GB', 'TB'];

/**
 * A size as the app and the command line both write it: "512 B", "1.5 kB", "40.0 kB", "8.0 MB".
 * One decimal in every unit past bytes, as the CLI's lines are read in columns. The unit is the
 * one whose rounded value stays under 1,024: 1,048,575 bytes read "1.0 MB", not "1024.0 kB". "—" for what
 * no size is (NaN, a negative), not "NaN kB".
 */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  if (n < 1024) return `${n} B`;
  let v = n / 1024;
  let i = 0;
  while (Number(v.toFixed(1)) >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${UNITS[i]}`;
}

/**
 * Two sizes said side by side ("2.9 kB of the 11.7 kB announced"), each as formatBytes writes
 * it, or both in bytes where the two would read alike: 4,999,000 bytes of 5,000,000 are both
 * "4.8 MB", and "4.8 MB of the 4.8 MB announced came" says nothing came short.
 */
export function formatBytesApart(a: number, b: number): [string, string] {
  const [sa, sb] = [formatBytes(a), formatBytes(b)];
  if (sa !== sb || a === b || !Number.isFinite(a) || !Number.isFinite(b)) return [sa, sb];
  return [`${a.toLocaleString('en-US')} B`, `${b.toLocaleString('en-US')} B`];
}
