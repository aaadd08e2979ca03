/**
 * `npm run bench -- charset`: how often a page that names no charset and is not UTF-8 is read
 * in its real charset, by language, charset and size of its text. The pages are made of real
 * prose nobody here wrote (the translated man pages under /usr/share/man/LANG; English from
 * section 1, with a word processor's curly quotes and dashes), encoded in each legacy charset
 * with iconv-lite and wrapped three ways: bare (a title and paragraphs); real (the head of the
 * article corpus's median page, its inline scripts and styles, and a menu of 40 links), so
 * ~300 bytes of text sit in KBs of ASCII markup; mixed (the same, each paragraph followed by
 * one in English: a technical or bilingual page). A page is read right when its decoded text
 * is the text that was encoded. The baseline, measured in the same run, is what Sift did
 * before: windows-1252 for every such page. "raw chardet" is chardet given the whole body,
 * markup and all. Western pages must stay windows-1252 ("charset changed" 0%).
 * `--lang=ru,fr` measures some languages only; `--detail` prints the detector's top answers
 * and their confidence, wrong ones first.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { analyse } from 'chardet';
import { decodeText } from '../src/main/fetch/charset';
import { medianPage } from './_corpus';

/** Language (a man page folder), the charsets its legacy pages were written in, and whether its pages must stay windows-1252. */
const CASES: { lang: string; charsets: string[]; western?: boolean }[] = [
  { lang: 'ru', charsets: ['windows-1251', 'koi8-r'] },
  { lang: 'uk', charsets: ['windows-1251'] },
  { lang: 'ja', charsets: ['shift_jis', 'euc-jp'] },
  { lang: 'zh_CN', charsets: ['gbk'] },
  { lang: 'zh_TW', charsets: ['big5'] },
  { lang: 'ko', charsets: ['euc-kr'] },
  { lang: 'cs', charsets: ['windows-1250', 'iso-8859-2'] },
  { lang: 'pl', charsets: ['windows-1250', 'iso-8859-2'] },
  { lang: 'hu', charsets: ['windows-1250'] },
  { lang: 'tr', charsets: ['windows-1254'] },
  // Measured only after the rules were set (held out): two more Central European languages
  // and five more Western ones, none of which any rule was tried on.
  { lang: 'hr', charsets: ['windows-1250'] },
  { lang: 'sl', charsets: ['windows-1250', 'iso-8859-2'] },
  { lang: 'en', charsets: ['windows-1252'], western: true },
  { lang: 'fr', charsets: ['windows-1252'], western: true },
  { lang: 'de', charsets: ['windows-1252'], western: true },
  { lang: 'es', charsets: ['windows-1252'], western: true },
  { lang: 'pt', charsets: ['windows-1252'], western: true },
  { lang: 'it', charsets: ['windows-1252'], western: true },
  { lang: 'nl', charsets: ['windows-1252'], western: true },
  { lang: 'sv', charsets: ['windows-1252'], western: true },
  { lang: 'da', charsets: ['windows-1252'], western: true },
  { lang: 'fi', charsets: ['windows-1252'], western: true },
];
/** Languages in a Latin script: any paragraph with two letters outside ASCII carries it. */
const LATIN = ['cs', 'pl', 'hu', 'tr', 'hr', 'sl'];
/** Bytes of text (in the legacy charset) per page. */
const SIZES = [300, 1000, 4000, 16000];
const PAGES_PER_CELL = 30;

/** The prose paragraphs of a groff man page: macros and escapes dropped, its text lines joined. */
function manProse(src: string): string[] {
  const out: string[] = [];
  let para: string[] = [];
  const flush = (): void => {
    if (para.length) out.push(para.join(' ').replace(/\s+/g, ' ').trim());
    para = [];
  };
  for (const line of src.split('\n')) {
    if (/^['.]\s*\\"/.test(line)) continue;
    const macro = /^[.']\s*([A-Za-z]+)\s*(.*)$/.exec(line);
    if (macro) {
      const [, name = '', args = ''] = macro;
      if (/^(?:B|I|BR|IR|RB|BI|IB|RI|SM|SB)$/.test(name)) para.push(args.replace(/"/g, ''));
      else flush();
      continue;
    }
    if (line.startsWith('.')) continue;
    para.push(line);
  }
  flush();
  return out
    .map((p) =>
      p
        .replace(/\\f(?:\[[^\]]*\]|\(..|.)/g, '')
        .replace(/\\\*(?:\[[^\]]*\]|\(..|.)/g, '')
        .replace(/\\\((?:em|en)/g, '-')
        .replace(/\\\(../g, '')
        .replace(/\\s[+-]?\d/g, '')
        .replace(/\\[&c%]/g, '')
        .replace(/\\e/g, '\\')
        .replace(/\\(.)/g, '$1')
        .replace(/[<>&]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((p) => p.length >= 40);
}

/**
 * English as a word processor wrote it: curly quotes, apostrophes and dashes, its only
 * bytes over 0x7f in windows-1252. The commonest legacy page there is; two of those bytes
 * (0x93 0x54, “T) also make a Shift_JIS character.
 */
const typeset = (p: string): string =>
  p
    .replace(/(\w)'(\w)/g, '$1’$2')
    .replace(/"([^"]*)"/g, '“$1”')
    .replace(/ --? /g, ' – ')
    .replace(/(\w)\.\s+(\w)/, '$1. “$2')
    .replace(/\.$/, '.”');

/** Paragraphs of one language, in a fixed order, that carry its script (a third of their letters outside ASCII, or any for a Latin script). */
function prose(lang: string, latin: boolean): string[] {
  if (lang === 'en') return englishProse();
  const dir = `/usr/share/man/${lang}`;
  if (!existsSync(dir)) return [];
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.gz')).sort();
  const paras: string[] = [];
  for (const f of files) {
    for (const p of manProse(gunzipSync(readFileSync(path.join(dir, f))).toString('utf8'))) {
      const wide = (p.match(/[\u0080-\uffff]/gu) ?? []).length;
      // Some translations are themselves mojibake (UTF-8 read as Latin-1: "manipulaciÃ³n"): not prose.
      if (/[ÃÂÅ][\u0080-\u00bf]/u.test(p)) continue;
      if (latin ? wide >= 2 : wide * 3 >= p.replace(/\s/g, '').length) paras.push(p);
    }
  }
  return paras;
}

/** English paragraphs of the man pages in section 1, typeset. */
function englishProse(): string[] {
  const dir = '/usr/share/man/man1';
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => f.endsWith('.gz')).sort().slice(0, 300);
  return files.flatMap((f) => manProse(gunzipSync(readFileSync(path.join(dir, f))).toString('utf8')).filter((p) => /^[A-Z][^\\]{80,}\.$/.test(p) && !/[\u0080-\uffff]/.test(p)).map(typeset));
}

/** `s` with each character `charset` cannot hold written as a numeric reference, as an editor saving a legacy page does. */
function encodable(s: string, charset: string): string {
  if (iconv.decode(iconv.encode(s, charset), charset) === s) return s;
  let out = '';
  for (const ch of s) out += iconv.decode(iconv.encode(ch, charset), charset) === ch ? ch : `&#${ch.codePointAt(0)};`;
  return out;
}
const encode = (s: string, charset: string): Buffer => iconv.encode(encodable(s, charset), charset);

/** The head of a real page, ASCII only and naming no charset: its inline scripts and styles are what a detector must see past. */
function realHead(): string {
  const html = medianPage().html;
  const head = /<head[^>]*>([\s\S]*?)<\/head>/i.exec(html)?.[1] ?? '';
  return head
    .replace(/<meta[^>]*charset[^>]*>/gi, '')
    .replace(/<title>[\s\S]*?<\/title>/i, '')
    .replace(/[\u0080-\uffff]/g, ' ');
}

/** A site's menu: 40 links, each named by a word of the page's own language. */
const menu = (words: string[]): string =>
  `<nav class="site-nav"><ul>${words.map((w, i) => `<li class="nav-item"><a class="nav-link" href="/section/${i}/index.html?utm_source=nav&amp;ref=top">${w}</a></li>`).join('')}</ul></nav>`;

/** bare: title and paragraphs; real: in a real page's head and a menu; mixed: the same, each paragraph followed by one in English (a technical page, a quote, a bilingual one). */
type Kind = 'bare' | 'real' | 'mixed';

interface Page {
  body: Buffer;
  html: string;
}

/** Pages of about `size` bytes of text each, from consecutive paragraphs, bare or in real markup. */
function pages(paras: string[], charset: string, size: number, kind: Kind, head: string, english: string[]): Page[] {
  const heavy = kind !== 'bare';
  const out: Page[] = [];
  let i = 0;
  while (out.length < PAGES_PER_CELL && paras.length) {
    const chosen: string[] = [];
    let bytes = 0;
    while (bytes < size && chosen.length < paras.length) {
      let p = paras[i++ % paras.length]!;
      const b = encode(p, charset).length;
      if (bytes + b > size * 1.2) p = iconv.decode(encode(p, charset).subarray(0, Math.max(40, size - bytes)), charset).replace(/\uFFFD.*$/u, '').replace(/\S*$/, '');
      chosen.push(p);
      bytes += encode(p, charset).length;
    }
    const title = chosen[0]!.slice(0, 40);
    const body = chosen
      .map((p, n) => `<p>${p}</p>${kind === 'mixed' ? `<p>${english[(i + n) % english.length]}</p>` : ''}`)
      .join('\n');
    const words = paras.slice(i, i + 40).map((p) => p.split(' ').find((w) => /[\u0080-\uffff]/.test(w)) ?? p.split(' ')[0]!);
    const html = heavy
      ? `<!DOCTYPE html><html lang="x"><head>${head}<title>${title}</title></head><body class="post-template">${menu(words)}<main><article><h1>${title}</h1>${body}</article></main><footer><a href="/about">About</a> <a href="/contact">Contact</a></footer></body></html>`
      : `<html><head><title>${title}</title></head><body>${body}</body></html>`;
    out.push({ body: encode(html, charset), html: encodable(html, charset) });
    if (i > paras.length * 4) break;
  }
  return out;
}

const pct = (n: number, of: number): string => (of ? `${Math.round((100 * n) / of)}%`.padStart(5) : '   -');

export default async function main(): Promise<void> {
  const detail = process.argv.includes('--detail');
  const head = realHead();
  const english = englishProse().map((p) => p.replace(/[\u0080-\uffff]/g, "'"));
  const answers: { cell: string; right: boolean; top: string; conf: number; next: string }[] = [];
  process.stdout.write(`pages in real markup (head ${Math.round(head.length / 1024)} KB of scripts and styles + a menu); "bare" = title and paragraphs only\n`);
  process.stdout.write('language  charset        text   markup  pages  before (1252)  raw chardet  Sift now  charset changed\n');
  const only = process.argv.find((a) => a.startsWith('--lang='))?.slice(7).split(',');
  for (const c of CASES.filter((x) => !only || only.includes(x.lang))) {
    const paras = prose(c.lang, c.western === true || LATIN.includes(c.lang));
    if (!paras.length) {
      process.stdout.write(`${c.lang}: no man pages on this machine, skipped\n`);
      continue;
    }
    for (const charset of c.charsets) {
      for (const size of SIZES) {
        for (const kind of ['bare', 'real', 'mixed'] as const) {
          const set = pages(paras, charset, size, kind, head, english);
          let before = 0;
          let raw = 0;
          let now = 0;
          let changed = 0;
          for (const p of set) {
            if (iconv.decode(p.body, 'windows-1252') === p.html) before++;
            const rawName = analyse(p.body)[0]?.name ?? '';
            if (rawName && iconv.encodingExists(rawName) && iconv.decode(p.body, rawName) === p.html) raw++;
            const d = decodeText(p.body, 'text/html');
            const right = d.text === p.html;
            if (right) now++;
            if (d.charset !== 'windows-1252') changed++;
            if (detail) {
              const t = p.body.toString('latin1').replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>|<[^>]*>/g, ' ');
              const stripped = analyse(Buffer.from(t, 'latin1'));
              const letters = p.html.replace(/<[^>]*>/g, '').match(/\p{L}/gu) ?? [];
              const high = letters.filter((l) => l > '\x7f').length / (letters.length || 1);
              answers.push({ cell: `${c.lang} ${charset} ${size} ${kind}`, right, top: `${stripped[0]?.name} ${d.charset}`, conf: stripped[0]?.confidence ?? 0, next: `${stripped[1]?.name} ${stripped[1]?.confidence} high ${high.toFixed(2)}` });
            }
          }
          process.stdout.write(
            `${c.lang.padEnd(9)} ${charset.padEnd(14)} ${String(size).padStart(5)}  ${kind.padEnd(5)}  ${String(set.length).padStart(5)}  ${pct(before, set.length).padStart(13)}  ${pct(raw, set.length).padStart(11)}  ${pct(now, set.length).padStart(8)}  ${pct(changed, set.length).padStart(15)}\n`,
          );
        }
      }
    }
  }
  if (detail) {
    answers.sort((a, b) => Number(a.right) - Number(b.right) || a.conf - b.conf);
    for (const a of answers) process.stdout.write(`${a.right ? 'right' : 'WRONG'}  ${a.cell.padEnd(28)} top ${a.top.padEnd(28)} ${String(a.conf).padStart(3)}   next ${a.next}\n`);
  }
}
