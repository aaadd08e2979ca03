/**
 * The store when the process that owns it dies, as a person at the command line meets it: a
 * real owner of the database in a child process (test/helpers/store-child.ts), killed with
 * SIGKILL at a moment an event chooses, and `sift` commands from the built bundle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { controlDir } from '../../src/main/control';
import { OWNER_FILE } from '../../src/main/control-owner';
import { collect, jsonLines, runSift, startSift, waitForStderr } from '../helpers/cli';
import { closeTerminals, hasScript, onTerminal, quote, siftLine } from '../helpers/terminal';
import { mountTmpfs, unmountTmpfs } from '../helpers/tmpfs';
import { openStore } from '../../src/main/store';
import { tempDir } from '../helpers/store';

const dirs: ReturnType<typeof tempDir>[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
    }
  }
  for (const d of dirs.splice(0)) d.remove();
});

/** A process that owns db with one job, its first target done and its second in flight; resolves with the job's ID. */
async function holder(db: string): Promise<{ child: ChildProcess; jobId: string; exited: Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', 'helpers', 'store-child.ts'), db, 'hold-marked'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const jobId = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
  });
  return { child, jobId, exited };
}

/** Resolves with the name of the first file in dir that matches re, once there is one. */
function fileAppears(dir: string, re: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const look = (): void => {
      const name = existsSync(dir) ? readdirSync(dir).find((n) => re.test(n)) : undefined;
      if (name) return resolve(name);
      setTimeout(look, 20);
    };
    look();
  });
}

describe('a reader whose database owner dies', () => {
  test('the owner killed while it writes the copy sift jobs asked for: sift jobs opens the database itself at once, shows the job interrupted, and leaves no copy behind', async () => {
    const t = tempDir('sift-durability-');
    dirs.push(t);
    const db = path.join(t.dir, 'sift.db');
    const { child, jobId, exited } = await holder(db);
    const reader = startSift(['jobs', '--json', '--db', db], { env: { SIFT_HOME: t.dir } });
    reader.stdin!.end();
    const done = collect(reader);
    // What an owner does first with a request (control.ts, takeSnapshot): takes it, and starts
    // the copy beside it. Then it dies, as a `sift batch` killed or an app crashing mid-copy.
    const control = controlDir(db);
    const req = await fileAppears(control, /^snapshot-.+\.req$/);
    const nonce = req.slice(0, -'.req'.length);
    renameSync(path.join(control, req), path.join(control, `${nonce}.wip`));
    writeFileSync(path.join(control, `${nonce}.db`), 'the first pages of a copy');
    child.kill('SIGKILL');
    await exited;

    // It waited 5 minutes for an answer that could not come (this test's cap is 2).
    const jobs = await done;
    expect(jobs.code, jobs.stderr).toBe(0);
    expect(jsonLines(jobs.stdout)).toEqual([expect.objectContaining({ id: jobId, status: 'failed', error: 'restart', targetsTotal: 2 })]);
    expect(jobs.stderr).toBe('');
    // What is left is the killed owner's mark, which the next owner's watch removes.
    expect(readdirSync(control).filter((n) => !OWNER_FILE.test(n))).toEqual([]);
  }, 120_000);

  test.each([
    ['jobs', [], 'printed'],
    ['status', ['JOB'], 'printed'],
    ['search', ['content'], 'printed'],
    ['export', ['JOB', '--out', 'OUT'], 'written'],
  ] as const)("Ctrl-C while the owner writes the copy sift %s asked for ends it at once (130), says so and what to do, and the owner's job goes on", async (command, args, nothing) => {
    const t = tempDir('sift-durability-');
    dirs.push(t);
    const db = path.join(t.dir, 'sift.db');
    const out = path.join(t.dir, 'out');
    const { child, jobId } = await holder(db);
    const given = args.map((a) => (a === 'JOB' ? jobId : a === 'OUT' ? out : a));
    const reader = startSift([command, ...given, '--db', db], { env: { SIFT_HOME: t.dir } });
    reader.stdin!.end();
    const done = collect(reader);
    // Taken, as an owner copying a big database has it for a while.
    const control = controlDir(db);
    const req = await fileAppears(control, /^snapshot-.+\.req$/);
    renameSync(path.join(control, req), path.join(control, req.replace(/\.req$/, '.wip')));
    reader.kill('SIGINT');

    // It went on waiting for the copy, up to 5 minutes; only a second Ctrl-C ended it. Then it
    // ended at once, and said nothing: a stop looked like any other end.
    const run = await done;
    expect(run.code, run.stderr).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `sift ${command}: interrupted while waiting for the Sift that has the database open to copy it; nothing was ${nothing}: the same sift ${command} again asks it once more (or reads the database itself once that Sift is closed)\n`,
    );
    expect(existsSync(out)).toBe(false);
    expect(child.exitCode).toBe(null);
  }, 120_000);
});

describe.skipIf(!hasScript)('a reader waiting for the copy, on a terminal', () => {
  afterAll(closeTerminals);

  test('sift jobs says after 2 s what it waits for, with the database\'s size, and Ctrl-C typed then stops it', async () => {
    const t = tempDir('sift-durability-');
    dirs.push(t);
    const db = path.join(t.dir, 'sift.db');
    await holder(db);
    const term = onTerminal(siftLine(`jobs --db ${quote(db)}`), { SIFT_HOME: t.dir });
    // Taken, as an owner copying a big database has it for a while.
    const control = controlDir(db);
    const req = await fileAppears(control, /^snapshot-.+\.req$/);
    renameSync(path.join(control, req), path.join(control, req.replace(/\.req$/, '.wip')));
    // It said nothing for up to 5 minutes: a wait looked like a hang.
    await term.seen(/sift jobs: waiting for the Sift that has the database open to copy it \(\d+(\.\d)? kB\) for this command to read; a big database takes a while \(Ctrl-C stops the wait\)/);
    term.child.stdin!.write('\x03');
    expect(await term.done, term.output()).toBe(130);
    expect(term.output()).toMatch(/sift jobs: interrupted while waiting for the Sift that has the database open to copy it; nothing was printed/);
  }, 120_000);
});

describe('sift cancel stopped by Ctrl-C while it waits for the owner\'s answer', () => {
  /** sift cancel JOB on a database a Sift holds without answering, Ctrl-C'd once its request is in the control folder; `take` does first what that Sift would. */
  async function cancelStopped(take: (control: string, req: string) => void): Promise<{ run: Awaited<ReturnType<typeof collect>>; jobId: string; control: string; child: ChildProcess }> {
    const t = tempDir('sift-durability-');
    dirs.push(t);
    const db = path.join(t.dir, 'sift.db');
    const { child, jobId } = await holder(db);
    const cancel = startSift(['cancel', jobId, '--db', db], { env: { SIFT_HOME: t.dir } });
    cancel.stdin!.end();
    const done = collect(cancel);
    const control = controlDir(db);
    const req = await fileAppears(control, /^cancel-.+\.req$/);
    take(control, req);
    cancel.kill('SIGINT');
    return { run: await done, jobId, control, child };
  }

  test('before the owner took the request: it is withdrawn, and the line says the job was not cancelled (it waited 5 s, deaf to Ctrl-C)', async () => {
    const { run, jobId, control, child } = await cancelStopped(() => {});
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toBe(`sift cancel: interrupted before the Sift that has the database open took the request, which is withdrawn: job ${jobId} was not cancelled; the same sift cancel again asks once more\n`);
    // Nothing left for the owner to act on later.
    expect(readdirSync(control).filter((n) => !OWNER_FILE.test(n))).toEqual([]);
    expect(child.exitCode).toBe(null);
  }, 120_000);

  test('after the owner took it, before its answer: the line says where to see whether the job was cancelled', async () => {
    // Taken as watchControl takes it: removed, then acted on.
    const { run, jobId } = await cancelStopped((control, req) => rmSync(path.join(control, req)));
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toBe(`sift cancel: interrupted after the Sift that has the database open took the request, before its answer came: sift status ${jobId} shows whether job ${jobId} was cancelled\n`);
  }, 120_000);

  test('a Sift that has not taken the request is waited for past 5 s (it gave up then, and said to cancel the job there), said after 10 s in a log, and Ctrl-C then withdraws it', async () => {
    const t = tempDir('sift-durability-');
    dirs.push(t);
    const db = path.join(t.dir, 'sift.db');
    const { child, jobId } = await holder(db);
    const cancel = startSift(['cancel', jobId, '--db', db], { env: { SIFT_HOME: t.dir } });
    cancel.stdin!.end();
    const waiting = waitForStderr(cancel, /sift cancel: waiting for .*\n/);
    const done = collect(cancel);
    expect(await waiting).toBe(
      `sift cancel: waiting for the Sift that has the database open to take the request to cancel job ${jobId}; one busy opening or copying a big database takes a while (Ctrl-C withdraws the request)\n`,
    );
    cancel.kill('SIGINT');
    const run = await done;
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toMatch(/was not cancelled; the same sift cancel again asks once more\n$/);
    expect(readdirSync(controlDir(db)).filter((n) => !OWNER_FILE.test(n))).toEqual([]);
    expect(child.exitCode).toBe(null);
  }, 120_000);

  test('the Sift that has the database open killed before it took the request: sift cancel opens the database itself and says the job is not running (it said \'did not answer\')', async () => {
    const t = tempDir('sift-durability-');
    dirs.push(t);
    const db = path.join(t.dir, 'sift.db');
    const { child, jobId, exited } = await holder(db);
    const cancel = startSift(['cancel', jobId, '--db', db], { env: { SIFT_HOME: t.dir } });
    cancel.stdin!.end();
    const done = collect(cancel);
    await fileAppears(controlDir(db), /^cancel-.+\.req$/);
    child.kill('SIGKILL');
    await exited;
    const run = await done;
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toBe(`sift cancel: job ${jobId} is not running (failed: restart): nothing to cancel: sift status ${jobId} shows its targets\n`);
    expect(readdirSync(controlDir(db)).filter((n) => /^cancel-/.test(n))).toEqual([]);
  }, 120_000);
});

describe('a database on a read-only disk', () => {
  test('sift jobs says to read a copy, and a copy made so lists the jobs', async (ctx) => {
    const t = tempDir('sift-durability-');
    dirs.push(t);
    const mnt = path.join(t.dir, 'backup');
    // A read-only disk (a backup, a mounted snapshot): a tmpfs remounted read-only, where this user may mount one.
    if (!mountTmpfs(mnt, '4m')) return ctx.skip();
    try {
      const db = path.join(mnt, 'sift.db');
      const s = openStore(db);
      s.insertJob({ id: 'a1b2c3d4e5f60718', caller: 'cli', callerClass: 'cli', idemKey: 'k', targetsTotal: 1, nowMs: 1, leaseExpires: 2 ** 50 }, [{ url: 'https://example.org/' }]);
      s.transition('a1b2c3d4e5f60718', 'queued', 'cancelled', '', 2);
      s.close();
      execFileSync('mount', ['-o', 'remount,ro', mnt]);

      const jobs = await runSift(['jobs', '--db', db], { env: { SIFT_HOME: t.dir } });
      expect(jobs.code).toBe(2);
      // It said "pass --db with a path in a folder you can write to": a path with no database there.
      expect(jobs.stderr).toBe(
        `sift jobs: cannot write the log ${path.join(mnt, 'sift.log')}: it is on a read-only disk\n  Sift writes its log and a journal beside the database, even to read it: copy sift.db (with sift.db-wal, if there is one) to a folder you can write to, and pass --db with the copy.\n`,
      );
      const copy = path.join(t.dir, 'copy', 'sift.db');
      mkdirSync(path.dirname(copy));
      copyFileSync(db, copy);
      const fromCopy = await runSift(['jobs', '--json', '--db', copy], { env: { SIFT_HOME: t.dir } });
      expect(fromCopy.code, fromCopy.stderr).toBe(0);
      expect(jsonLines(fromCopy.stdout)).toEqual([expect.objectContaining({ id: 'a1b2c3d4e5f60718', status: 'cancelled' })]);
    } finally {
      unmountTmpfs(mnt, true);
    }
  }, 120_000);
});
