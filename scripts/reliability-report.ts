/**
 * Writes docs/reliability.md from the JSON files the reliability and security tests leave
 * in test-results/reliability/. Run `npm test` and `npm run test:reliability` first, then
 * `npm run reliability:report`. A class whose file is missing is listed as not run, so the
 * page never shows figures that were not measured.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface ClassResult {
  name: string;
  command: string;
  figures: Record<string, number | string | boolean>;
  details?: string[];
  writtenAt: string;
}

const ROOT = path.resolve(__dirname, '..');
const DIR = path.join(ROOT, 'test-results/reliability');
const OUT = path.join(ROOT, 'docs/reliability.md');

const CLASSES: { name: string; title: string; part: 'fast' | 'long'; what: string }[] = [
  {
    name: 'faults',
    title: 'Faults through real batches',
    part: 'long',
    what: 'One fault-injecting loopback server (test/helpers/faults.ts): stalls, trickles, resets, a gzip bomb, a redirect loop, 1 MB of headers, a short body, a wrong charset, a 50 MB line, 10 MB of nested divs, broken/encrypted/empty PDFs, JSON 10,000 deep, endless jq programs and two catastrophic greps (one V8 reruns in linear time, one with a \\p{…} class it cannot), each as a job of createBatchRunner over a temp store (6 s deadline), twice. Every target ends done or failed with a stable error and a hint, every job ends, process RSS (which includes the worker threads) stays under the bound, and a normal job runs after them.',
  },
  {
    name: 'crash',
    title: 'SIGKILL of `sift batch`',
    part: 'long',
    what: 'The CLI runs a 40-target list over loopback as a child process and is killed with SIGKILL at a random point (start-up, mid-job, or after the end). Then: PRAGMA integrity_check, every `#N ok` line the child printed is a done target with its result, `sift status` shows the job failed with error "restart" and no target running (twice, unchanged: nothing resumes), and "run the rest again" (the runRest handler, or a second `sift batch` of the unfinished URLs) ends all done.',
  },
  {
    name: 'load',
    title: 'Load: 8 live jobs × 1,000 targets',
    part: 'long',
    what: 'createServices with workers = 4 and the real fetch pipeline over loopback, bound to the test bridge; a page in Chromium submits the 8 jobs through window.sift and keeps the latest job and rows from jobChanged/targetsChanged. All jobs end done, the fetch function never has more than 4 calls in flight, the page ends with exactly the store’s rows for every job, and the event rate stays at or under ~10 messages a second per job.',
  },
  {
    name: 'fuzz-ipc',
    title: 'The IPC surface under arbitrary payloads',
    part: 'fast',
    what: 'fast-check sends every channel of the contract fc.anything() payloads and near misses built from the request schemas (right keys, wrong or hostile values, one key too many), plus unknown channel names, through dispatch with response checking. Only valid ok envelopes or typed errors come back, never an "internal" error, dispatch never throws, nothing is left unhandled, and appInfo still answers.',
  },
  {
    name: 'fuzz-input',
    title: 'URL lists and options under fuzzing',
    part: 'fast',
    what: 'List lines with fuzzed options through parseList; fuzzed pages/grep/jq/question/mode through checkOptions and fetcher.extractBuffer on text, HTML, JSON and PDF. Every call ends with a result or a typed FetchError with a hint, within the deadline; catastrophic regular expressions are answered (V8 reruns them in linear time), those only the u flag reads stop at the deadline with 504, and the next grep runs.',
  },
  {
    name: 'ssrf',
    title: 'SSRF, DNS rebinding, redirect to metadata',
    part: 'fast',
    what: 'Whole URLs through fetchTarget (URL parser, guard and client together): loopback, private, CGNAT, link-local, multicast, broadcast, reserved and unspecified addresses in decimal, octal, hex, short, full-width and percent-encoded IPv4, IPv6 loopback/ULA/link-local, IPv4-mapped/-compatible, NAT64, 6to4, names that resolve to them, cloud metadata in every spelling; a name that answers public then loopback (blocked at connect, the server sees nothing); an allowed host redirecting to metadata. All 403 before a packet leaves.',
  },
  {
    name: 'electron',
    title: 'Electron settings, CSP, fuses, electronegativity',
    part: 'fast',
    what: 'The fuses in electron-builder.yml; openExternal and window.open; the sandbox and hardening order in index.ts; the CSP in a real Chromium (no inline script, eval, new Function or other-origin loads); @doyensec/electronegativity on src/, offline, with every finding explained in test/reliability/electronegativity-allowlist.json. (contextIsolation, sandbox, navigation, permissions: test/unit/electron-glue.test.ts.)',
  },
];

function load(name: string): ClassResult | undefined {
  const file = path.join(DIR, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ClassResult) : undefined;
}

const fmt = (v: number | string | boolean): string => (typeof v === 'number' ? v.toLocaleString('en-US') : String(v));

const results = new Map(CLASSES.map((c) => [c.name, load(c.name)]));
const n = (cls: string, key: string): number | undefined => {
  const v = results.get(cls)?.figures[key];
  return typeof v === 'number' ? v : undefined;
};
const show = (v: number | undefined): string => (v === undefined ? 'not run' : fmt(v));

const lines: string[] = [
  '# Reliability and security',
  '',
  '<!-- Generated by scripts/reliability-report.ts from test-results/reliability/*.json. Do not edit by hand. -->',
  '',
  'How Sift is attacked the way the world will attack it, and what it measured. Regenerate with:',
  '',
  '```sh',
  'npm test                      # the fast part: fuzz and security (test/unit)',
  'npm run test:reliability      # the long part: faults, crash, load (test/reliability), ~5 min on 2 cores',
  'npm run reliability:report    # this page',
  '```',
  '',
  '## Summary',
  '',
  '| | |',
  '|---|---|',
  `| Finished targets lost after SIGKILL | ${show(n('crash', 'lost'))} (of ${show(n('crash', 'okLinesChecked'))} reported done, over ${show(n('crash', 'runs'))} kills) |`,
  `| Jobs resumed after a restart | ${show(n('crash', 'resumed'))} |`,
  `| Crashes of main (IPC fuzz) | ${show(n('fuzz-ipc', 'mainCrashes'))} (${show(n('fuzz-ipc', 'inputsTried'))} payloads, ${show(n('fuzz-ipc', 'internalErrors'))} untyped errors) |`,
  `| Un-blocked SSRF forms | ${show(n('ssrf', 'unblocked'))} (of ${show(n('ssrf', 'checked'))} forms and cases) |`,
  `| Rows differing between renderer and store under load | ${show(n('load', 'rowsDiffering'))} (of ${show(n('load', 'rowsCompared'))}) |`,
  `| Faults without a stable error and hint | ${show(n('faults', 'unstable'))} (${show(n('faults', 'faults'))} faults × ${show(n('faults', 'runs'))} runs) |`,
  `| Unexplained electronegativity findings | ${show(n('electron', 'electronegativityUnexplained'))} |`,
  '',
];

for (const c of CLASSES) {
  const r = results.get(c.name);
  lines.push(`## ${c.title}`, '', `Part: ${c.part === 'fast' ? '`npm test`' : '`npm run test:reliability`'}.`, '', c.what, '');
  if (!r) {
    lines.push('Not run: no result file. Run the command above, then regenerate.', '');
    continue;
  }
  lines.push(`Run with \`${r.command}\`; measured ${r.writtenAt.slice(0, 16).replace('T', ' ')} UTC.`, '', '| figure | value |', '|---|---|');
  for (const [k, v] of Object.entries(r.figures)) lines.push(`| ${k} | ${fmt(v)} |`);
  lines.push('');
  if (r.details?.length) {
    lines.push('<details><summary>Details</summary>', '', ...r.details.map((d) => `- ${d.replace(/\|/g, '\\|')}`), '', '</details>', '');
  }
}

mkdirSync(path.dirname(OUT), { recursive: true });
writeFileSync(OUT, lines.join('\n'));
process.stdout.write(`wrote ${path.relative(ROOT, OUT)} (${[...results.values()].filter(Boolean).length}/${CLASSES.length} classes)\n`);
