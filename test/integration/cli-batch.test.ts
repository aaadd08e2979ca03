/**
 * `sift batch` and friends end to end: the real command as a child process, against
 * loopback servers, on a real database in a temp SIFT_HOME.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makePdf } from '../helpers/fetch-pdf';
import { articleHtml, startSite, type Site } from '../helpers/sites';
import { collect, runSift, startSift, waitForStderr } from '../helpers/cli';
import { deferred, until } from '../helpers/store';

let site: Site;
const PENDING_AFTER_HANG = 3_000;
let home: string;
let env: NodeJS.ProcessEnv;

/** /hang/N answers only when the test ends: the target in flight when the user interrupts. */
const hanging = new Set<ServerResponse>();
const hangArrived = new Map<string, () => void>();
const hangSeen = (name: string): Promise<void> => new Promise((resolve) => hangArrived.set(name, resolve));

beforeAll(async () => {
  site = await startSite({
    '/hang/ctrlc': (_req, res) => {
      hanging.add(res);
      hangArrived.get('ctrlc')?.();
    },
    '/hang/remote': (_req, res) => {
      hanging.add(res);
      hangArrived.get('remote')?.();
    },
    '/hang/legacy': (_req, res) => {
      hanging.add(res);
      hangArrived.get('legacy')?.();
    },
    // Ok, but maybe not what was wanted: a teaser of two sentences and a scanned PDF.
    '/teaser': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>Teaser</title></head><body><main><article><h1>Teaser</h1><p>The first lines of a long story, cut short.</p></article></main></body></html>');
    },
    // A subscriber's article that says so in its structured data, of which only the start came back.
    '/subscribers': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const ld = JSON.stringify({ '@type': 'NewsArticle', headline: 'Tides', isAccessibleForFree: false, wordCount: 1200 });
      const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="/s/${i}">Section ${i} of the paper</a></li>`).join('');
      res.end(`<!doctype html><html><head><title>Tides</title><script type="application/ld+json">${ld}</script></head><body><nav><ul>${nav}</ul></nav><article><h1>Tides</h1><p>The estuary fills twice a day, and the pilots read the water as much as the charts. Subscribe to read the rest of this story.</p></article></body></html>`);
    },
    '/scan.pdf': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(makePdf({ pages: [[], []], noText: true }));
    },
    '/blank': (_req, res) => res.writeHead(204).end(),
    '/hang/kill': (_req, res) => {
      hanging.add(res);
      hangArrived.get('kill')?.();
    },
    '/hang/out': (_req, res) => {
      hanging.add(res);
      hangArrived.get('out')?.();
    },
    // Busy at the first request: 429 with Retry-After: 1, then the article.
    '/busy-once': (_req, res) => {
      if ((site.hits.get('/busy-once') ?? 0) === 1) {
        res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' }).end('slow down');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articleHtml(429));
    },
    '/hang/hard': (_req, res) => {
      hanging.add(res);
      hangArrived.get('hard')?.();
    },
    '/hang/made': (_req, res) => {
      hanging.add(res);
      hangArrived.get('made')?.();
    },
    '/hang/finished': (_req, res) => {
      hanging.add(res);
      hangArrived.get('finished')?.();
    },
    '/hang/SIGTERM': (_req, res) => {
      hanging.add(res);
      hangArrived.get('SIGTERM')?.();
    },
    '/hang/SIGHUP': (_req, res) => {
      hanging.add(res);
      hangArrived.get('SIGHUP')?.();
    },
  });
  home = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-'));
  // The CLI reads the app's settings: loopback by name is allowed, 10.x stays blocked.
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 20 }));
  env = { SIFT_HOME: home };
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await site.close();
});

function mixedList(base: string): { text: string; expect: ('ok' | 'failed')[] } {
  const lines: string[] = ['# a mixed reading list', ''];
  const want: ('ok' | 'failed')[] = [];
  for (let i = 0; i < 200; i++) {
    if (i === 7) {
      lines.push('not a url at all');
      continue;
    }
    if (i === 50) {
      lines.push(`${base}/slow/1500`);
      want.push('ok');
    } else if (i === 90) {
      lines.push('http://10.0.0.1/intranet/page');
      want.push('failed');
    } else if (i % 10 === 3) {
      lines.push(`${base}/missing/${i}`);
      want.push('failed');
    } else if (i % 10 === 5) {
      lines.push(`${base}/doc/${i}.pdf pages=2`);
      want.push('ok');
    } else if (i % 10 === 7) {
      lines.push(`${base}/data/${i}.json jq='.items[] | .name'`);
      want.push('ok');
    } else {
      lines.push(`${base}/article/${i}`);
      want.push('ok');
    }
  }
  return { text: `${lines.join('\n')}\n`, expect: want };
}

type Line = Record<string, unknown>;
const jsonLines = (text: string): Line[] => text.trim().split('\n').map((l) => JSON.parse(l) as Line);

/**
 * `sift status ID --json` target lines as `sift batch --json` prints them (SPEC §6): the two
 * must say the same of every target once the batch has returned.
 */
function asBatchLines(statusTargets: Line[]): Line[] {
  return statusTargets.map((t) =>
    t.status === 'done'
      ? { url: t.url, ok: true }
      : t.status === 'pending'
        ? { url: t.url, ok: false, error: 'not run' }
        : { url: t.url, ok: false, error: t.error, hint: t.hint },
  );
}
const batchSummary = (lines: Line[]): Line[] =>
  lines.map((l) => (l.ok ? { url: l.url, ok: true } : l.error === 'not run' ? { url: l.url, ok: false, error: 'not run' } : { url: l.url, ok: false, error: l.error, hint: l.hint }));

describe('sift batch: what it prints after an interrupt is what the store holds', () => {
  const list = (name: string): string => [`${site.base}/article/1`, `${site.base}/article/2`, `${site.base}/hang/${name}`, `${site.base}/article/4`].join('\n');

  test('Ctrl-C during a download: --json prints the in-flight target as cancelled, equal to sift status --json, exit 130', async () => {
    const db = path.join(home, 'ctrlc-json.db');
    const file = path.join(home, 'ctrlc-json.txt');
    writeFileSync(file, list('ctrlc'));
    const arrived = hangSeen('ctrlc');
    const child = startSift(['batch', file, '--json', '--db', db], { env });
    child.stdin!.end();
    const done = collect(child);
    await arrived;
    child.kill('SIGINT');
    const run = await done;
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).not.toMatch(/internal error|bug in Sift/);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    const printed = jsonLines(run.stdout);
    expect(printed.map((l) => l.ok)).toEqual([true, true, false, false]);
    expect(printed[2]).toMatchObject({ ok: false, status: 499, error: 'cancelled' });
    // A shell has no "Run the rest again" button: each unfinished target names sift batch's flag.
    expect(String(printed[2]!.hint)).toMatch(/run the same sift batch again with --rest to fetch it/);
    expect(printed[3]).toMatchObject({ ok: false, error: 'not run', hint: expect.stringMatching(/run the same sift batch again with --rest to fetch it/) });
    for (const line of printed.slice(2)) expect(String(line.hint)).not.toMatch(/run the rest again/i);
    const status = await runSift(['status', id, '--json', '--db', db], { env });
    const [job, ...targets] = jsonLines(status.stdout);
    expect(job).toMatchObject({ id, status: 'cancelled' });
    expect(targets[2]).toMatchObject({ status: 'failed', error: 'cancelled', hint: printed[2]!.hint });
    expect(batchSummary(printed)).toEqual(asBatchLines(targets));
  }, 300_000);

  test('sift cancel from another terminal during a download: --json equals sift status --json', async () => {
    const db = path.join(home, 'remote-json.db');
    const file = path.join(home, 'remote-json.txt');
    writeFileSync(file, list('remote'));
    const arrived = hangSeen('remote');
    const child = startSift(['batch', file, '--json', '--db', db], { env });
    child.stdin!.end();
    const done = collect(child);
    const id = /job ([0-9a-f]+)/.exec(await waitForStderr(child, /job [0-9a-f]+\n/))![1]!;
    await arrived;
    // The start of the ID is enough: the Sift that owns the database finds the job it names.
    const cancel = await runSift(['cancel', id.slice(0, 6), '--db', db], { env });
    expect(cancel.code, cancel.stderr).toBe(0);
    const run = await done;
    expect(run.code, run.stderr).toBe(1);
    const printed = jsonLines(run.stdout);
    expect(printed[2]).toMatchObject({ ok: false, status: 499, error: 'cancelled' });
    const status = await runSift(['status', id, '--json', '--db', db], { env });
    const [job, ...targets] = jsonLines(status.stdout);
    expect(job).toMatchObject({ id, status: 'cancelled' });
    expect(batchSummary(printed)).toEqual(asBatchLines(targets));
  }, 300_000);

  test('Ctrl-C with --out: the export is written after the in-flight target is stored and lists it as cancelled', async () => {
    const db = path.join(home, 'ctrlc-out.db');
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-out-'));
    const file = path.join(home, 'ctrlc-out.txt');
    writeFileSync(file, list('out'));
    const arrived = hangSeen('out');
    const child = startSift(['batch', file, '--db', db, '--out', out, '--format', 'jsonl'], { env });
    child.stdin!.end();
    const done = collect(child);
    await arrived;
    child.kill('SIGINT');
    const run = await done;
    expect(run.code, run.stderr).toBe(130);
    // As sift status counts it: stopped mid-way, not failed (nothing failed here).
    expect(run.stderr).toMatch(/exported 4 targets \(0 failed, 1 stopped mid-way, 1 not run\)/);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    const rows = jsonLines(readFileSync(path.join(out, `sift-${id}.jsonl`), 'utf8'));
    expect(rows.map((r) => [r.status, r.error])).toEqual([
      ['done', ''],
      ['done', ''],
      ['failed', 'cancelled'],
      ['pending', 'the job had not reached this target when it was exported'],
    ]);
  }, 300_000);

  // `kill` sends SIGTERM, a closed terminal SIGHUP. Uncaught, each killed sift mid-job: the
  // job stayed "running" (failed as "restart" by the next sift) and --out left its hidden
  // ".partial" folder behind.
  test.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s with --out stops the job as Ctrl-C does: cancelled, in-flight target stored, export sealed, exit %i', async (sig, code) => {
    const db = path.join(home, `${sig}-out.db`);
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-out-'));
    const file = path.join(home, `${sig}-out.txt`);
    writeFileSync(file, list(sig));
    const arrived = hangSeen(sig);
    const child = startSift(['batch', file, '--db', db, '--out', out, '--format', 'jsonl'], { env });
    child.stdin!.end();
    const done = collect(child);
    await arrived;
    child.kill(sig);
    const run = await done;
    expect([run.code, run.signal], run.stderr).toEqual([code, null]);
    expect(run.stderr).not.toMatch(/internal error|bug in Sift/);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    expect(readdirSync(out)).toEqual([`sift-${id}.jsonl`]);
    const status = await runSift(['status', id, '--json', '--db', db], { env });
    const [job, ...targets] = jsonLines(status.stdout);
    expect(job).toMatchObject({ id, status: 'cancelled' });
    expect(targets.map((t) => [t.status, t.error])).toEqual([
      ['done', ''],
      ['done', ''],
      ['failed', 'cancelled'],
      ['pending', ''],
    ]);
  }, 300_000);

  test('a second Ctrl-C while the export is written exits at once and leaves no hidden .partial behind', async () => {
    const db = path.join(home, 'ctrlc-hard.db');
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-out-'));
    const file = path.join(home, 'ctrlc-hard.txt');
    // After the first Ctrl-C the export still writes a file for each of the 3,000 targets
    // that never ran (--include-failed): 4 s on the 2-core build machine, where the second
    // Ctrl-C follows the "cancelling" line within milliseconds.
    const rest = Array.from({ length: PENDING_AFTER_HANG }, (_, i) => `${site.base}/article/${i}`);
    writeFileSync(file, [`${site.base}/hang/hard`, ...rest].join('\n'));
    const arrived = hangSeen('hard');
    const child = startSift(['batch', file, '--db', db, '--out', out, '--include-failed'], { env });
    child.stdin!.end();
    const done = collect(child);
    await arrived;
    // The export under way: its hidden folder is there, the job still runs.
    await until(() => readdirSync(out).some((n) => n.includes('.partial')), 60_000);
    const cancelling = waitForStderr(child, /cancelling: storing the target in flight/);
    child.kill('SIGINT');
    await cancelling;
    child.kill('SIGINT');
    const run = await done;
    expect(run.code, run.stderr).toBe(130);
    // The hard exit came before the export was sealed (no sift-<id> folder), and took its
    // hidden ".partial" folder along.
    expect(run.stderr).not.toMatch(/exported/);
    expect(readdirSync(out)).toEqual([]);
  }, 300_000);

  test('a second Ctrl-C before the export is sealed takes the folders --out made along, and says what it left', async () => {
    const db = path.join(home, 'ctrlc-made.db');
    const base = mkdtempSync(path.join(os.tmpdir(), 'sift-out-'));
    const out = path.join(base, 'new', 'deep');
    const file = path.join(home, 'ctrlc-made.txt');
    writeFileSync(file, [`${site.base}/hang/made`, `${site.base}/article/1`].join('\n'));
    const arrived = hangSeen('made');
    const child = startSift(['batch', file, '--db', db, '--out', out], { env });
    child.stdin!.end();
    const done = collect(child);
    await arrived;
    // Both signals land before the first one's work goes on: a stopped process keeps them
    // pending (two of one kind would merge into one), and they are read together when it runs.
    child.kill('SIGSTOP');
    child.kill('SIGINT');
    child.kill('SIGTERM');
    child.kill('SIGCONT');
    const run = await done;
    // Whichever the process reads first names the exit: 130 (Ctrl-C) or 143 (kill).
    expect([130, 143], run.stderr).toContain(run.code);
    // new/deep was made for the export, which was never written: an empty folder read as one.
    expect(readdirSync(base)).toEqual([]);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    expect(run.stderr).toContain(`sift batch: stopped at once: the export was not written (its unfinished files are removed); the results stored so far are kept: sift export ${id} --out DIR writes them\n`);
  }, 300_000);
});

describe('sift batch --out of a job that has ended', () => {
  test('Ctrl-C while it exports stops the export, removes what it wrote and exits 130, as sift export does', async () => {
    const db = path.join(home, 'ended-out.db');
    const file = path.join(home, 'ended-out.txt');
    // A job cancelled at its first target: exporting its 3,000 targets that never ran
    // (--include-failed) takes seconds, the time to Ctrl-C it once its hidden folder is there.
    const rest = Array.from({ length: PENDING_AFTER_HANG }, (_, i) => `${site.base}/article/${i}`);
    writeFileSync(file, [`${site.base}/hang/finished`, ...rest].join('\n'));
    const arrived = hangSeen('finished');
    const first = startSift(['batch', file, '--db', db], { env });
    first.stdin!.end();
    const cancelled = collect(first);
    await arrived;
    first.kill('SIGINT');
    expect((await cancelled).code).toBe(130);

    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-out-'));
    const child = startSift(['batch', file, '--db', db, '--out', out, '--include-failed'], { env });
    child.stdin!.end();
    const done = collect(child);
    await waitForStderr(child, /^job [0-9a-f]+ reused$/m);
    await until(() => readdirSync(out).some((n) => n.includes('.partial')), 60_000);
    child.kill('SIGINT');
    const run = await done;
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).not.toMatch(/^exported /m);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    expect(run.stderr).toContain(`sift batch: export cancelled; nothing was written\n  The results are stored: \`sift export ${id} --out DIR\` writes them without fetching again.\n`);
    expect(readdirSync(out)).toEqual([]);
  }, 300_000);
});

describe('sift batch', () => {
  test('a 200-URL mixed list finishes with the right statuses, --json lines parse, exit 1; resubmitting reuses the job', async () => {
    const db = path.join(home, 'mixed.db');
    const list = mixedList(site.base);
    const file = path.join(home, 'list.txt');
    writeFileSync(file, list.text);
    const run = await runSift(['batch', file, '--json', '--db', db], { env, timeoutMs: 240_000 });
    expect(run.code, run.stderr.slice(-3000)).toBe(1);
    const first = run.stderr.split('\n')[0]!;
    expect(first).toMatch(/^job [0-9a-f]+$/);
    expect(run.stderr).toMatch(/line 10: invalid/);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(199);
    expect(lines.map((l) => (l.ok ? 'ok' : 'failed'))).toEqual(list.expect);
    const pdf = lines.find((l) => String(l.url).endsWith('.pdf'))!;
    expect(pdf.content).toContain('Outlook');
    expect(pdf.content).not.toContain('Quarterly report');
    const json = lines.find((l) => String(l.url).includes('/data/'))!;
    expect(json.content).toMatch(/^"item-\d+-a"\n"item-\d+-b"$/);
    const missing = lines.find((l) => String(l.url).includes('/missing/'))!;
    expect(missing).toMatchObject({ ok: false, status: 404 });
    const blocked = lines.find((l) => String(l.url).includes('10.0.0.1'))!;
    expect(blocked).toMatchObject({ ok: false, status: 403, error: 'blocked' });
    expect(String(blocked.hint)).toMatch(/private/);
    const article = lines.find((l) => String(l.url).includes('/article/'))!;
    expect(article.content).toMatch(/^# Article \d+/m);
    expect((article.meta as Record<string, unknown>).title).toMatch(/^Article \d+$/);

    const again = await runSift(['batch', file, '--json', '--db', db], { env });
    expect(again.stderr.split('\n')[0]).toBe(`${first} reused`);
    expect(again.stdout).toBe(run.stdout);
    expect(again.code).toBe(1);

    const jobs = await runSift(['jobs', '--json', '--db', db], { env });
    const jobLines = jobs.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jobLines).toHaveLength(1);
    expect(jobLines[0]).toMatchObject({ id: first.slice(4), status: 'partial', targetsTotal: 199, targetsDone: 199 });
  }, 300_000);

  test('Ctrl-C cancels the job cleanly: the in-flight target is stored, the rest stay pending, exit 130', async () => {
    const db = path.join(home, 'ctrlc.db');
    const file = path.join(home, 'slow.txt');
    writeFileSync(file, Array.from({ length: 20 }, (_, i) => `${site.base}/slow/${400 + i}`).join('\n'));
    const child = startSift(['batch', file, '--db', db], { env });
    child.stdin!.end();
    const done = collect(child);
    await waitForStderr(child, /\[2\/20\]/);
    child.kill('SIGINT');
    const run = await done;
    expect(run.code, run.stderr).toBe(130);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    const status = await runSift(['status', id, '--json', '--db', db], { env });
    const [job, ...targets] = status.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(job).toMatchObject({ id, status: 'cancelled' });
    const states = targets.map((t) => t.status);
    const finished = states.filter((s) => s === 'done' || s === 'failed').length;
    expect(finished).toBeGreaterThanOrEqual(3); // the two seen + the one in flight, stored
    expect(states.slice(0, finished).every((s) => s === 'done' || s === 'failed')).toBe(true);
    expect(states.slice(finished).every((s) => s === 'pending')).toBe(true);
    expect(states.slice(finished).length).toBeGreaterThan(0);
  }, 300_000);

  test('kill -9 of sift batch, then sift status: the job failed with reason restart, finished targets intact', async () => {
    const db = path.join(home, 'kill.db');
    const file = path.join(home, 'slow2.txt');
    writeFileSync(file, Array.from({ length: 20 }, (_, i) => `${site.base}/slow/${300 + i}`).join('\n'));
    const child = startSift(['batch', file, '--db', db], { env });
    child.stdin!.end();
    const done = collect(child);
    await waitForStderr(child, /\[3\/20\]/);
    child.kill('SIGKILL');
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');
    const id = /^job ([0-9a-f]+)/.exec(killed.stderr)![1]!;
    const seen = [...killed.stderr.matchAll(/#(\d+) ok/g)].map((m) => Number(m[1]) - 1);
    const status = await runSift(['status', id, '--json', '--db', db], { env });
    expect(status.code).toBe(0);
    const [job, ...targets] = status.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(job).toMatchObject({ id, status: 'failed', error: 'restart' });
    for (const idx of seen) expect(targets[idx]).toMatchObject({ status: 'done' });
    expect(targets.filter((t) => t.status === 'running')).toHaveLength(0);
    expect(targets.some((t) => t.status === 'pending')).toBe(true);
  }, 300_000);

  test('kill -9 with a target in flight, then sift status in words: the target cut short is not counted finished, so the counts add up to the list', async () => {
    const db = path.join(home, 'kill-words.db');
    const file = path.join(home, 'kill-words.txt');
    writeFileSync(file, [`${site.base}/article/1`, `${site.base}/article/2`, `${site.base}/hang/kill`, `${site.base}/article/4`, `${site.base}/article/5`].join('\n'));
    const arrived = hangSeen('kill');
    const child = startSift(['batch', file, '--db', db], { env });
    child.stdin!.end();
    const done = collect(child);
    // The third target's request came: it is stored running (serial drain), the first two done.
    await arrived;
    child.kill('SIGKILL');
    const id = /^job ([0-9a-f]+)/.exec((await done).stderr)![1]!;
    const status = await runSift(['status', id, '--db', db], { env });
    expect(status.code, status.stderr).toBe(0);
    // It read "3/5 finished, 1 failed" above "3 targets of 5 did not finish": 6 of 5.
    expect(status.stdout).toMatch(new RegExp(`^job ${id}: failed \\(restart\\), 2/5 finished, 0 failed, 1 stopped mid-way, created `));
    expect(status.stderr).toContain('3 targets of 5 did not finish');
    // The list of jobs counts them alike (it said 3/5).
    const jobs = await runSift(['jobs', '--db', db], { env });
    expect(jobs.stdout).toMatch(new RegExp(`^${id}  failed +2/5  `, 'm'));
  }, 120_000);

  test('kill -9 of sift batch --out, then --rest --out: the export says which job holds the targets finished before, and the command it gives writes them', async () => {
    const db = path.join(home, 'kill-out.db');
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-rest-out-'));
    const file = path.join(home, 'slow-out.txt');
    const urls = Array.from({ length: 20 }, (_, i) => `${site.base}/slow/${400 + i}`);
    writeFileSync(file, urls.join('\n'));
    const child = startSift(['batch', file, '--db', db, '--out', out, '--format', 'jsonl'], { env });
    child.stdin!.end();
    const done = collect(child);
    await waitForStderr(child, /\[3\/20\]/);
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');

    const rest = await runSift(['batch', file, '--db', db, '--rest', '--out', out, '--format', 'jsonl'], { env });
    expect(rest.code, rest.stderr).toBe(0);
    const first = /the rest of job ([0-9a-f]{16}): the (\d+) targets it did not finish/.exec(rest.stderr)!;
    const finishedBefore = 20 - Number(first[2]);
    // The export holds the rest only; the first part of the list was in no file, and nothing said so.
    const note = new RegExp(`the ${finishedBefore} targets? of this list that job ${first[1]} finished before are not in this export: \`(sift export ${first[1]} --out \\S+ --format jsonl)\` writes them`).exec(rest.stderr);
    expect(note, rest.stderr).not.toBeNull();
    const again = await runSift([...note![1]!.split(' ').slice(1), '--db', db], { env });
    expect(again.code, again.stderr).toBe(0);
    // The two exports hold every URL of the list done, each once.
    const doneUrls = readdirSync(out)
      .flatMap((f) => jsonLines(readFileSync(path.join(out, f), 'utf8')))
      .filter((l) => l.status === 'done')
      .map((l) => l.url);
    expect([...doneUrls].sort()).toEqual([...urls].sort());
  }, 300_000);

  test('sift cancel from another terminal cancels the running batch; sift status reads it running; another batch gets a clear "in use" error', async () => {
    // Its own data folder with a 10-minute deadline: the hanging target keeps the batch
    // running (and owning the database) however long the other commands take to start.
    const home2 = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-remote-'));
    writeFileSync(path.join(home2, 'settings.json'), JSON.stringify({ allowHosts: ['127.0.0.1'], deadlineSeconds: 600 }));
    const env = { SIFT_HOME: home2 };
    const db = path.join(home2, 'remote.db');
    const file = path.join(home2, 'slow3.txt');
    writeFileSync(file, [`${site.base}/article/1`, `${site.base}/hang/legacy`, `${site.base}/article/3`].join('\n'));
    const arrived = hangSeen('legacy');
    const child = startSift(['batch', file, '--db', db], { env });
    child.stdin!.end();
    const done = collect(child);
    const id = /job ([0-9a-f]+)/.exec(await waitForStderr(child, /job [0-9a-f]+\n/))![1]!;
    await arrived;
    // Read from the snapshot the batch writes on request: the job as it is, running.
    const status = await runSift(['status', id, '--json', '--db', db], { env });
    expect(status.code, `${status.stdout}\n${status.stderr}\nbatch exit: ${child.exitCode}`).toBe(0);
    expect(jsonLines(status.stdout)[0]).toMatchObject({ id, status: 'running', targetsTotal: 3 });
    const second = await runSift(['batch', file, '--db', db], { env });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/in use by another Sift/);
    expect(second.stderr).toMatch(/Wait for the other sift command to finish, or close the other Sift window/);
    expect(second.stderr).toContain(db);
    const cancel = await runSift(['cancel', id, '--db', db], { env });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stderr).toMatch(/cancelled/);
    const run = await done;
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^cancelled: /m);
    const after = await runSift(['cancel', id, '--db', db], { env });
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/not running \(cancelled\)/);
    // And what to do next: nothing to stop; its finished targets are there to read.
    expect(after.stderr).toContain(`nothing to cancel: sift status ${id} shows its targets, and the same sift batch again with --rest fetches the ones that did not finish`);
  }, 300_000);

  test('bad input: no valid URL, a missing file and a bad flag exit 2 with a clear message', async () => {
    const file = path.join(home, 'junk.txt');
    writeFileSync(file, 'hello\nftp://x/y\n');
    const a = await runSift(['batch', file, '--db', path.join(home, 'junk.db')], { env });
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/junk\.txt holds no valid http\(s\) URL \(2 invalid lines\)\. Give one URL a line/);
    const empty = path.join(home, 'empty.txt');
    writeFileSync(empty, '\n');
    const blank = await runSift(['batch', empty, '--db', path.join(home, 'junk.db')], { env });
    expect(blank).toMatchObject({ code: 2 });
    expect(blank.stderr).toMatch(/empty\.txt holds no valid http\(s\) URL: it is empty\. Give one URL a line/);
    const b = await runSift(['batch', path.join(home, 'nope.txt')], { env });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/cannot read .*nope.txt: no such file; give the path of a list of URLs, or - to read one from stdin\n/);
    const c = await runSift(['batch', file, '--frobnicate'], { env });
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/frobnicate/);
    const d = await runSift(['batch', file, '--out', home, '--format', 'pdf'], { env });
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/pdf/);
    // More URLs than a job holds: the numbers and how to split, in a home whose limit is 3.
    const small = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-cap-'));
    writeFileSync(path.join(small, 'settings.json'), JSON.stringify({ targetsPerJob: 3 }));
    const five = path.join(small, 'five.txt');
    writeFileSync(five, Array.from({ length: 5 }, (_, i) => `http://127.0.0.1:9/${i}`).join('\n'));
    const e = await runSift(['batch', five, '--db', path.join(small, 'cap.db')], { env: { SIFT_HOME: small } });
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('the list has 5 URLs, and one job holds at most 3');
    expect(e.stderr).toContain(`split -l 3 ${five} part-`);
  }, 300_000);

  test('a list\'s address typed without https:// is told to give it with its scheme; a missing file, even one named like notes:2026, is a file', async () => {
    const db = path.join(home, 'no-scheme.db');
    const host = new URL(site.base).host;
    // A folder of its own: home holds the list.txt an earlier test wrote.
    const here = mkdtempSync(path.join(home, 'no-scheme-'));
    const r = await runSift(['batch', `${host}/sitemap.xml`, '--db', db], { env, cwd: here });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`sift batch: cannot read ${host}/sitemap.xml: no such file; for the list at that address on the web, give it with its scheme: sift batch https://${host}/sitemap.xml\n`);
    for (const file of ['notes:2026', 'list.txt', 'example.org']) {
      const f = await runSift(['batch', file, '--db', db], { env, cwd: here });
      expect(f.code, file).toBe(2);
      expect(f.stderr, file).toBe(`sift batch: cannot read ${file}: no such file; give the path of a list of URLs, or - to read one from stdin\n`);
    }
    expect(existsSync(db)).toBe(false);
  }, 300_000);

  test('--include-failed or --include-meta without --out is refused before anything is fetched, not run as if it were not there', async () => {
    const file = path.join(home, 'include-alone.txt');
    writeFileSync(file, `${site.base}/article/include-alone\n`);
    const said = {
      '--include-failed': 'sift batch: --include-failed needs --out DIR: it writes a file for each failed target into the export; without --out the failed ones are printed with the rest\n',
      '--include-meta': "sift batch: --include-meta needs --out DIR: it writes each result's meta into its exported file; without --out, --json prints the meta\n",
    };
    for (const [flag, err] of Object.entries(said)) {
      const r = await runSift(['batch', file, flag, '--allow-private', '--db', path.join(home, 'include-alone.db')], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(err);
      expect(r.stdout).toBe('');
    }
    expect(site.hits.get('/article/include-alone')).toBeUndefined();
    expect(existsSync(path.join(home, 'include-alone.db'))).toBe(false);
  }, 300_000);

  test('a damaged settings.json is said once, with the field at fault, and the defaults run; batch says it after its job line', async () => {
    const damaged = mkdtempSync(path.join(os.tmpdir(), 'sift-cli-settings-'));
    const file = path.join(damaged, 'settings.json');
    const denv = { SIFT_HOME: damaged };
    writeFileSync(file, '{"workers": 0}');
    const fetched = await runSift(['fetch', `${site.base}/article/1`, '--allow-private'], { env: denv });
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(fetched.stdout).toContain('Paragraph 1 of article 1');
    // A note, worded as the other notes are, not as the command's error ("sift: …"), with what to do.
    expect(fetched.stderr).toBe(
      `settings.json does not match the settings schema (workers: Too small: expected number to be >=1), so Sift uses its default settings: ${file}\n  Correct the file, or remove it to keep the defaults without this note (saving the settings in the app writes it anew).\n`,
    );
    // A comma after the last setting, as a hand edit leaves it: the note says where to look.
    writeFileSync(file, '{\n  "workers": 2,\n}\n');
    const list = path.join(damaged, 'one.txt');
    writeFileSync(list, `${site.base}/article/2\n`);
    const batch = await runSift(['batch', list, '--allow-private', '--db', path.join(damaged, 'sift.db')], { env: denv });
    expect(batch.code, batch.stderr).toBe(0);
    const lines = batch.stderr.split('\n');
    expect(lines[0]).toMatch(/^job [0-9a-f]{16}$/);
    expect(lines[1]).toBe(`settings.json is not valid JSON (line 3, column 1), so Sift uses its default settings: ${file}`);
    expect(batch.stderr.match(/settings\.json is not valid JSON/g)).toHaveLength(1);
  }, 300_000);

  test('an --out, --db or --log Sift cannot write to stops the batch before it fetches anything, with what to do', async () => {
    const file = path.join(home, 'unwritable.txt');
    writeFileSync(file, `${site.base}/article/unwritable\n`);
    const inTheWay = path.join(home, 'a-file');
    writeFileSync(inTheWay, 'x');
    const runs: [string[], RegExp][] = [
      [['--out', path.join(inTheWay, 'out')], /^sift batch: cannot write to .*a-file\/out: \/.*\/a-file is a file, in the way of the export folder\n {2}Choose a folder/m],
      [['--out', path.join(inTheWay, 'hits.csv'), '--format', 'csv'], /a file is in the way/],
      [['--out', path.join(inTheWay, 'hits.zip')], /a file is in the way/],
      [['--db', path.join(inTheWay, 'sift.db')], /^sift batch: cannot write the log .*a-file.*sift\.log \(ENOTDIR\)\n {2}Sift keeps its log beside the database: pass --db/m],
      [['--log', path.join(inTheWay, 'run.log')], /^sift batch: cannot write the log .*run\.log \(ENOTDIR\)\n {2}Pass --log with a path/m],
    ];
    // /proc answers "no such file" for a folder made in it, where Node's own recursive mkdir spins forever.
    if (existsSync('/proc/self')) runs.push([['--out', '/proc/sift-out'], /^sift batch: cannot make the folder \/proc\/sift-out\n {2}The folder it would go in takes no new folders/m]);
    for (const [flags, said] of runs) {
      const r = await runSift(['batch', file, ...(flags.includes('--db') ? [] : ['--db', path.join(home, 'unwritable.db')]), ...flags], { env });
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr, flags.join(' ')).toMatch(said);
    }
    expect(site.hits.get('/article/unwritable')).toBeUndefined();
  }, 300_000);

  test('a --grep, --pages or --jq that cannot work or is empty, or a --question over its length, stops the batch before it fetches anything (exit 2)', async () => {
    const file = path.join(home, 'bad-options.txt');
    writeFileSync(file, `${site.base}/article/bad-option-1\n${site.base}/article/bad-option-2\n`);
    const runs: [string[], string][] = [
      [['--grep', 'net (revenue'], 'sift batch: --grep: grep "net (revenue" is not a valid regular expression: a ( has no ) to close it\n'],
      [['--pages', 'first'], 'sift batch: --pages: pages must look like 1-3,7,10- (got "first")\n'],
      // One line saying what and where, then what to do: jq's caret drawing and "jq: 1 compile error" broke the lines around it.
      [['--jq', '.items[] | {name: }'], "sift batch: --jq: syntax error, unexpected '}' at column 19 (\"}\")\n  Check the jq program; https://jqlang.org/manual/ has the syntax.\n"],
      [['--question', 'why '.repeat(600)], 'sift batch: --question: 2400 characters, at most 2000; shorten it\n'],
      [['--grep', ''], 'sift batch: --grep is empty: give it a value, or leave --grep out\n'],
      // Blanks ask nothing: every page came back whole, as if there were no question.
      [['--question', '  '], 'sift batch: --question is empty: give it a value, or leave --question out\n'],
    ];
    for (const [flags, said] of runs) {
      const r = await runSift(['batch', file, '--db', path.join(home, 'bad-options.db'), ...flags], { env });
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr, flags.join(' ')).toContain(said);
      expect(r.stderr, flags.join(' ')).not.toMatch(/^job /m);
    }
    expect(site.hits.get('/article/bad-option-1')).toBeUndefined();
  }, 300_000);

  test("a line's own jq program that does not compile makes that line invalid, said with its line and not fetched", async () => {
    const file = path.join(home, 'line-jq.txt');
    writeFileSync(file, [`${site.base}/data/71.json jq='.items[].name'`, `${site.base}/data/72.json jq='.items[] | $min'`, `${site.base}/data/73.json jq='.items[] | {name: }'`].join('\n'));
    const r = await runSift(['batch', file, '--db', path.join(home, 'line-jq.db'), '--json'], { env });
    // The lines are reported as a bad grep on a line is, after `job ID`; the rest runs.
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`line 2: invalid: jq: $min is not defined at column 12 ("$min") (${site.base}/data/72.json)\n`);
    expect(r.stderr).toContain(`line 3: invalid: jq: syntax error, unexpected '}' at column 19 ("}") (${site.base}/data/73.json)\n`);
    // What to do, once: the longer hint holds the shorter.
    expect(r.stderr.match(/Check the jq program/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/without --arg/);
    expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { url: string }).url)).toEqual([`${site.base}/data/71.json`]);
    expect(site.hits.get('/data/72.json')).toBeUndefined();
    expect(site.hits.get('/data/73.json')).toBeUndefined();
    // Every line so: nothing to submit, a usage error.
    const only = path.join(home, 'line-jq-only.txt');
    writeFileSync(only, `${site.base}/data/74.json jq='.foo('\n`);
    const none = await runSift(['batch', only, '--db', path.join(home, 'line-jq.db')], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^line 1: invalid: jq: syntax error/);
    expect(none.stderr).not.toMatch(/^job /m);
    expect(site.hits.get('/data/74.json')).toBeUndefined();
  }, 300_000);

  test("a jq program asked for text gives jq -r's lines, unquoted, and the export writes them as text", async () => {
    const file = path.join(home, 'jq-text.txt');
    writeFileSync(file, [`${site.base}/data/81.json jq='.items[].name' mode=text`, `${site.base}/data/82.json jq='.items[].name'`, `${site.base}/data/83.json jq='.items | length' mode=text`].join('\n'));
    const out = path.join(home, 'jq-text-out');
    const r = await runSift(['batch', file, '--db', path.join(home, 'jq-text.db'), '--json', '--out', out], { env });
    expect(r.code, r.stderr).toBe(0);
    const [asText, asJson, count] = jsonLines(r.stdout);
    // A list of names to paste or URLs to fetch next, one a line, as `jq -r` prints them:
    // before, --mode text was ignored under jq and every string came back quoted.
    expect(asText).toMatchObject({ ok: true, content: 'item-81-a\nitem-81-b', meta: { jq_raw: true } });
    expect(asJson).toMatchObject({ ok: true, content: '"item-82-a"\n"item-82-b"' });
    expect((asJson!.meta as Record<string, unknown>).jq_raw).toBeUndefined();
    // What is not a string is JSON, as jq -r prints it.
    expect(count).toMatchObject({ ok: true, content: '2' });
    // The export (Markdown files, the default) fences them as text, and jq's JSON as JSON.
    const [folder] = readdirSync(out).filter((f) => f.startsWith('sift-'));
    const file81 = readdirSync(path.join(out, folder!)).find((f) => / 81\.json\.md$/.test(f))!;
    const file82 = readdirSync(path.join(out, folder!)).find((f) => / 82\.json\.md$/.test(f))!;
    expect(readFileSync(path.join(out, folder!, file81), 'utf8')).toBe('```text\nitem-81-a\nitem-81-b\n```\n');
    expect(readFileSync(path.join(out, folder!, file82), 'utf8')).toBe('```json\n"item-82-a"\n"item-82-b"\n```\n');
  }, 300_000);

  test('a list longer than the parser reads is refused, not run as its first part', async () => {
    const file = path.join(home, 'long.txt');
    const comments = '# a note\n'.repeat(200_000);
    writeFileSync(file, `${site.base}/article/long-first\n${comments}${site.base}/article/long-last\n`);
    const r = await runSift(['batch', file, '--db', path.join(home, 'long.db')], { env });
    expect(r.code, r.stderr).toBe(2);
    // Parts of 200,000 lines were each refused again: one job holds at most 10,000 URLs.
    expect(r.stderr).toBe(`sift batch: ${file} is longer than 200,000 lines, more than Sift reads as one list; nothing was fetched.\n  Split it (e.g. \`split -l 10000 ${file} part-\`) and run each part.\n`);
    expect(site.hits.get('/article/long-first')).toBeUndefined();
    // sift parse shows the part Sift reads, and says that sift batch runs none of it.
    const parsed = await runSift(['parse', file], { env });
    expect(parsed.code, parsed.stderr).toBe(0);
    expect(parsed.stderr).toContain(
      `the list was cut short: it is longer than 200,000 lines, more than Sift reads as one list, and sift batch runs none of it. Split it (e.g. \`split -l 10000 ${file} part-\`) and run each part.\n`,
    );
  }, 300_000);

  test('sift batch - reads stdin, --out exports the results, --log gets JSON lines without URLs', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-out-'));
    const logFile = path.join(out, 'run.log');
    const run = await runSift(['batch', '-', '--db', path.join(home, 'stdin.db'), '--out', out, '--format', 'jsonl', '--log', logFile], {
      env,
      input: `${site.base}/article/1\n${site.base}/article/2\n`,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/exported 2 targets \(0 failed\) to .* \(.+\): 1 file, a line for each of the 2 targets: 2 results\n/);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    const jsonl = readFileSync(path.join(out, `sift-${id}.jsonl`), 'utf8').trim().split('\n');
    expect(jsonl).toHaveLength(2);
    const log = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log.some((l) => l.jobId === id && l.caller === 'cli')).toBe(true);
    expect(readFileSync(logFile, 'utf8')).not.toContain('127.0.0.1');
    // The data folder's own log gets the same lines.
    expect(readFileSync(path.join(home, 'sift.log'), 'utf8')).toContain(id);
  }, 300_000);
  test('a target whose site answers 429 says it waits, how long and why, then gets the page; the log names no URL', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-busy-'));
    const logFile = path.join(out, 'run.log');
    const run = await runSift(['batch', '-', '--db', path.join(home, 'busy.db'), '--log', logFile, '--json'], {
      env,
      input: `${site.base}/article/7\n${site.base}/busy-once\n`,
    });
    expect(run.code, run.stderr).toBe(0);
    // The wait is the runner's 2 s (longer than the site's Retry-After: 1), said before the try after it.
    const lines = run.stderr.split('\n');
    const waiting = lines.findIndex((l) => l === '[1/2] #2 waiting 2 s, then trying again: the site answered HTTP 429 Too Many Requests');
    expect(waiting, run.stderr).toBeGreaterThan(0);
    expect(lines.findIndex((l) => l.startsWith('[2/2] #2 ok'))).toBeGreaterThan(waiting);
    expect(run.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { ok: boolean }).ok)).toEqual([true, true]);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    const logText = readFileSync(logFile, 'utf8');
    const log = logText.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log.find((l) => l.msg === 'target waiting to try again')).toMatchObject({ caller: 'cli', jobId: id, idx: 1, status: 429, waitMs: 2000 });
    expect(logText).not.toContain('127.0.0.1');
    expect(logText).not.toContain('busy-once');
  }, 300_000);

  test("a thin page, a PDF without text, an empty answer and a paywall's teaser are ok with warnings, and every listing says so", async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-out-'));
    const db = path.join(home, 'warnings.db');
    const run = await runSift(['batch', '-', '--db', db, '--out', out, '--format', 'csv'], {
      env,
      input: `${site.base}/teaser
${site.base}/scan.pdf
${site.base}/article/1
${site.base}/blank
${site.base}/subscribers
`,
    });
    expect(run.code, run.stderr).toBe(0);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    expect(run.stderr).toMatch(/#1 ok [\d.]+ \w?B \(thin page\) http/);
    expect(run.stderr).toMatch(/#2 ok [\d.]+ \w?B \(no text layer\) http/);
    expect(run.stderr).toMatch(/#3 ok [\d.]+ \w?B http/);
    expect(run.stderr).toMatch(/#4 ok 0 B \(empty\) http/);
    expect(run.stderr).toMatch(/#5 ok [\d.]+ \w?B \(paywalled\) http/);
    expect(run.stderr).toMatch(/done: 5\/5 · ok 5 \(4 with warnings\) · failed 0/);
    const status = await runSift(['status', id, '--db', db], { env });
    expect(status.stdout).toMatch(/5\/5 finished, 0 failed, 4 ok with warnings/);
    expect(status.stdout).toMatch(/\/teaser {2}[\d.]+ \w?B \(thin page\)/);
    // The JSON listing keeps the keys SPEC §6 gives it; the result's meta has the warnings.
    expect(Object.keys(jsonLines((await runSift(['status', id, '--json', '--db', db], { env })).stdout)[1]!)).toEqual(['idx', 'url', 'status', 'error', 'hint', 'reason', 'bytes']);
    const csv = readFileSync(path.join(out, `sift-${id}.csv`), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv[0]).toMatch(/,reason,warnings$/);
    expect(csv.slice(1).map((l) => l.split(',').at(-1))).toEqual(['thin', 'no_text', '', 'empty', 'paywall']);
  }, 300_000);
  test('a grep that matches no line and a question no passage answers are ok, and every listing says nothing was kept, not "ok 0 B" alone', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'sift-out-'));
    const db = path.join(home, 'kept-nothing.db');
    const run = await runSift(['batch', '-', '--db', db, '--out', out, '--format', 'csv'], {
      env,
      input: `${site.base}/article/1 grep="ADS"
${site.base}/article/2 grep="(?i)ADS"
${site.base}/article/3 q="when do the trains leave?"
${site.base}/article/4 q="what does sift drop?"
${site.base}/doc/1.pdf grep=dividend
`,
    });
    expect(run.code, run.stderr).toBe(0);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    expect(run.stderr).toMatch(/#1 ok 0 B \(no match\) http/);
    expect(run.stderr).toMatch(/#2 ok [\d.]+ \w?B http/);
    expect(run.stderr).toMatch(/#3 ok 0 B \(no answer\) http/);
    expect(run.stderr).toMatch(/#4 ok [\d.]+ \w?B http/);
    expect(run.stderr).toMatch(/#5 ok 0 B \(no match\) http/);
    // Found nothing, which is an answer, not a fault: said by what, not "(3 with warnings)".
    expect(run.stderr).toMatch(/done: 5\/5 · ok 5 \(2 with no match, 1 with no answer\) · failed 0/);
    expect((await runSift(['status', id, '--db', db], { env })).stdout).toMatch(/\/article\/1 {2}0 B \(no match\)/);
    const csv = readFileSync(path.join(out, `sift-${id}.csv`), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv.slice(1).map((l) => l.split(',').at(-1))).toEqual(['no_match', '', 'no_answer', '', 'no_match']);
    // --json: the result's meta says so, beside its count.
    const json = jsonLines((await runSift(['batch', '-', '--db', db, '--json'], { env, input: `${site.base}/article/1 grep="ADS"\n` })).stdout);
    expect(json[0]).toMatchObject({ ok: true, content: '', meta: { matches: 0 }, warnings: ['no_match'] });
  }, 300_000);
  test('a dead link says what happened on stderr and in sift status; --json keeps the stored "internal error" and its hint', async () => {
    const db = path.join(home, 'dead.db');
    // Port 1 on loopback is refused at once: a bad gateway, which the wiring stores as "internal error" (seed 03 rule 1).
    const run = await runSift(['batch', '-', '--db', db], { env, input: 'http://127.0.0.1:1/gone\n' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/#1 failed: connection refused\. Nothing listens at that address; check the URL or try later\. http:\/\/127\.0\.0\.1:1\/gone/);
    expect(run.stderr).not.toMatch(/internal error/);
    const id = /^job ([0-9a-f]+)/.exec(run.stderr)![1]!;
    expect((await runSift(['status', id, '--db', db], { env })).stdout).toMatch(/\[network\] connection refused\./);
    const [, line] = jsonLines((await runSift(['status', id, '--json', '--db', db], { env })).stdout);
    expect(line).toMatchObject({ status: 'failed', error: 'internal error', reason: 'network', hint: expect.stringMatching(/^connection refused\./) });
  }, 300_000);
  test('blocked targets say once what to do; the same list again is the stored job, said so, and --again fetches it anew', async () => {
    const db = path.join(home, 'again.db');
    const input = `${site.base}/article/7\nhttp://10.0.0.1/a\nhttp://10.0.0.2/b\n`;
    const run = await runSift(['batch', '-', '--db', db], { env, input });
    expect(run.code).toBe(1);
    const id = /^job ([0-9a-f]+)\n/.exec(run.stderr)![1]!;
    // The progress lines give each target's error; the hint comes once for both, after the results.
    expect(run.stderr).toMatch(/what to do:\n {2}2 × blocked\n {6}The address is a private address\. .*--allow-host HOST.*--allow-private\)\.\n/);
    expect(run.stderr.indexOf('what to do:')).toBeGreaterThan(run.stderr.indexOf('partial: 3/3'));
    const status = await runSift(['status', id, '--db', db], { env });
    expect(status.stdout).toMatch(/10\.0\.0\.1\/a {2}\[blocked\]\n/);
    expect(status.stderr).toMatch(/^what to do:\n {2}2 × blocked\n/);

    const again = await runSift(['batch', '-', '--db', db, '--allow-private'], { env, input });
    expect(again.stderr.split('\n').slice(0, 2)).toEqual([
      `job ${id} reused`,
      expect.stringMatching(/^ {2}the same list ran as this job on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(partial\); these are its stored results\. --retry-failed fetches the 2 targets that failed; --again fetches the list again$/),
    ]);
    expect(again.stdout).toBe(run.stdout);

    // --again is a new job (the guard refuses 10.x before any connection: nothing leaves loopback).
    const fresh = await runSift(['batch', '-', '--db', db, '--again'], { env, input });
    const freshId = /^job ([0-9a-f]+)$/.exec(fresh.stderr.split('\n')[0]!)![1]!;
    expect(freshId).not.toBe(id);
    expect(fresh.stderr).toMatch(/partial: 3\/3 · ok 1 · failed 2/);
    expect(jsonLines((await runSift(['jobs', '--json', '--db', db], { env })).stdout).map((j) => j.id)).toEqual([freshId, id]);
    // The newest job is the one the same list reuses from now on.
    expect((await runSift(['batch', '-', '--db', db], { env, input })).stderr.split('\n')[0]).toBe(`job ${freshId} reused`);
  }, 300_000);
  test('--rest with no earlier job of the list (another database) fetches the whole list and says why', async () => {
    const db = path.join(home, 'rest-fresh.db');
    const input = `${site.base}/article/3\n${site.base}/article/4\n`;
    const run = await runSift(['batch', '-', '--db', db, '--rest'], { env, input });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^job [0-9a-f]+$/),
      '  --rest: this database holds no earlier job of this list (jobs are kept for the time set in the app’s Settings, "Keep finished jobs for"), so all 2 targets are fetched',
    ]);
    expect(run.stderr).toMatch(/done: 2\/2 · ok 2/);

    // With the list's job found stopped short (as a crash leaves it: failed "restart", a
    // target never reached), --rest runs that rest as a new job and says so, and only that.
    const raw = new Database(db);
    raw.prepare("UPDATE targets SET status = 'pending', result = NULL, title = '' WHERE idx = 1").run();
    raw.prepare("UPDATE jobs SET status = 'failed', error = 'restart', targets_done = 1").run();
    raw.close();
    const rest = await runSift(['batch', '-', '--db', db, '--rest'], { env, input });
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toMatch(/^job [0-9a-f]{16}\n {2}the rest of job [0-9a-f]{16}: the 1 target it did not finish\n/);
    expect(rest.stderr).not.toContain('no earlier job');
  }, 120_000);
  test('--out writes each page while the job runs, not after the last one', async () => {
    const hold = deferred();
    const held = await startSite({
      '/held': (_req, res) => {
        void hold.promise.then(() => {
          res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('released at last');
        });
      },
    });
    try {
      const out = mkdtempSync(path.join(os.tmpdir(), 'sift-live-out-'));
      const list = path.join(out, 'list.txt');
      writeFileSync(list, `${held.base}/article/1\n${held.base}/held\n`);
      const child = startSift(['batch', list, '--db', path.join(home, 'live.db'), '--out', out, '--format', 'md'], { env });
      const running = collect(child);
      // The first page's file exists in the export's hidden .partial folder while the second is still unanswered.
      const firstFile = (): boolean =>
        readdirSync(out)
          .filter((d) => d.includes('.partial'))
          .some((d) => readdirSync(path.join(out, d)).some((f) => f.endsWith('.md') && readFileSync(path.join(out, d, f), 'utf8').includes('Paragraph 1 of article 1')));
      // Both, in either order: a small file is written at once, possibly before the second request leaves.
      await until(() => held.hits.get('/held') === 1 && firstFile(), 60_000);
      expect(held.hits.get('/held')).toBe(1);
      hold.resolve();
      const run = await running;
      expect(run.code).toBe(0);
      const dir = readdirSync(out).filter((d) => d.startsWith('sift-'));
      expect(dir).toHaveLength(1);
      const files = readdirSync(path.join(out, dir[0]!));
      expect(files.filter((f) => f.endsWith('.md'))).toHaveLength(2);
      expect(files.some((f) => readFileSync(path.join(out, dir[0]!, f), 'utf8').includes('released at last'))).toBe(true);
    } finally {
      hold.resolve();
      await held.close();
    }
  }, 300_000);
});
