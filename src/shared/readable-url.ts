/**
 * A URL as a browser's address bar shows it: an IDN host in its own letters (xn--r8jz45g.jp
 * is 例え.jp) and a path's percent-encoded UTF-8 as the characters it spells
 * (/%E3%83%91%E3%82%B9 is /パス). Sift stores URLs as WHATWG URL serialises them, and a list
 * in Japanese, Russian or Greek showed rows no one who wrote it could read (in the app and in
 * `sift batch`'s progress lines). Display only: links, titles, copies and --json keep the
 * stored URL.
 *
 * What could mislead stays encoded, as in Chromium and Firefox: a host label that mixes
 * scripts or is all Cyrillic or Greek letters that pass for Latin ones (аррӏе.com), and in a
 * path anything ASCII (a %2F is not a /), invisible or a direction control.
 */
export function readableUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const rest = decodePercent(`${u.pathname}${u.search}${u.hash}`);
  return `${u.protocol}//${readableHost(u.hostname)}${u.port ? `:${u.port}` : ''}${rest}`;
}

/** A host name (a leading dot kept) with its IDN labels in their own letters where that cannot mislead, as readableUrl shows it. */
export function readableHost(hostname: string): string {
  const labels = hostname.split('.');
  const tld = labels.at(-1) ?? '';
  return labels.map((l) => readableLabel(l, tld)).join('.');
}

/** Scripts a label may be written in together: one alone, or Japanese, Chinese and Korean writing with Latin. */
const SCRIPT_SETS: RegExp[] = [
  /^[\p{sc=Latin}\p{sc=Common}\p{sc=Inherited}]+$/u,
  /^[\p{sc=Cyrillic}\p{sc=Common}\p{sc=Inherited}]+$/u,
  /^[\p{sc=Greek}\p{sc=Common}\p{sc=Inherited}]+$/u,
  /^[\p{sc=Latin}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Common}\p{sc=Inherited}]+$/u,
  /^[\p{sc=Latin}\p{sc=Han}\p{sc=Bopomofo}\p{sc=Common}\p{sc=Inherited}]+$/u,
  /^[\p{sc=Latin}\p{sc=Han}\p{sc=Hangul}\p{sc=Common}\p{sc=Inherited}]+$/u,
  ...['Arabic', 'Hebrew', 'Armenian', 'Georgian', 'Thai', 'Lao', 'Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Ethiopic', 'Khmer', 'Myanmar'].map(
    (s) => new RegExp(`^[\\p{sc=${s}}\\p{sc=Common}\\p{sc=Inherited}]+$`, 'u'),
  ),
];

/** Cyrillic and Greek letters that pass for Latin ones (Chromium's whole-script confusables, in short). */
const LATIN_LOOKALIKES = /^[аԁеһіјӏорԛѕԝхусьъпгѵѡӕʙвкмтнαβεικνορτυχ\p{Nd}-]+$/u;

/** A label of an IDN host in its own letters when that cannot mislead; else as it came. */
function readableLabel(label: string, tld: string): string {
  if (!label.toLowerCase().startsWith('xn--')) return label;
  const text = decodePunycode(label.slice(4).toLowerCase());
  // What IDNA would never have encoded so (ASCII upper case, dots, controls, invisible characters) is not shown.
  // A label of no letters at all (emoji, symbols) is shown encoded too, as browsers show it.
  if (text === undefined || /[\p{C}\p{Z}A-Z./:@]/u.test(text) || !/\p{L}/u.test(text) || !SCRIPT_SETS.some((re) => re.test(text))) return label;
  // An all-look-alike Cyrillic or Greek label under a TLD in Latin letters reads as a Latin name it is not.
  if (LATIN_LOOKALIKES.test(text) && /^[a-z0-9-]+$/.test(tld) && !/^xn--/.test(tld)) return label;
  return text;
}

/** Percent-encoded UTF-8 as its characters, but ASCII, invisible and control characters, which stay encoded. */
export function decodePercent(s: string): string {
  return s.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return run;
    }
    let out = '';
    let at = 0;
    for (const ch of text) {
      const size = new TextEncoder().encode(ch).length;
      out += ch.charCodeAt(0) < 0x80 || /[\p{C}\p{Z}]/u.test(ch) ? run.slice(at, at + size * 3) : ch;
      at += size * 3;
    }
    return out;
  });
}

// RFC 3492's parameters for IDNA.
const BASE = 36;
const TMIN = 1;
const TMAX = 26;
const SKEW = 38;
const DAMP = 700;

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - TMIN) * TMAX) >> 1) {
    d = Math.floor(d / (BASE - TMIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - TMIN + 1) * d) / (d + SKEW));
}

const digitOf = (c: number): number => (c >= 48 && c <= 57 ? c - 22 : c >= 97 && c <= 122 ? c - 97 : BASE);

/** RFC 3492 decoding of a label's part after "xn--"; undefined when it is not valid Punycode. */
export function decodePunycode(input: string): string | undefined {
  const out: number[] = [];
  const basic = Math.max(input.lastIndexOf('-'), 0);
  for (let j = 0; j < basic; j++) {
    const c = input.charCodeAt(j);
    if (c >= 0x80) return undefined;
    out.push(c);
  }
  let n = 128;
  let bias = 72;
  let i = 0;
  for (let at = basic > 0 ? basic + 1 : 0; at < input.length; ) {
    const old = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (at >= input.length) return undefined;
      const digit = digitOf(input.charCodeAt(at++));
      if (digit >= BASE) return undefined;
      i += digit * w;
      const t = k <= bias ? TMIN : k >= bias + TMAX ? TMAX : k - bias;
      if (digit < t) break;
      w *= BASE - t;
      if (i > 0x10ffff * 64 || w > 0x10ffff * 64) return undefined;
    }
    bias = adapt(i - old, out.length + 1, old === 0);
    n += Math.floor(i / (out.length + 1));
    i %= out.length + 1;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return undefined;
    out.splice(i++, 0, n);
  }
  return String.fromCodePoint(...out);
}
