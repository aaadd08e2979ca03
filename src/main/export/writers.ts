/**
 * One writer per export format. Each takes targets one at a time (add), then seals its
 * output under the final name (finish) or removes every trace of it (abort).
 */
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { stringify, type Stringifier } from 'csv-stringify';
import { emptyResultLabel, emptyResultText, isEmptyResult } from '../../shared/empty';
import { resultWarnings, rowFailure, type Options, type Result, type TargetStatus } from '../../shared/types';
import { canonicalOptions, formatOptionsLine } from '../../shared/urllist/options';
import { type LayoutSink } from './layout';
import { fileNameKey, safeFileName } from './names';
import { OutFile, discard, partialPath, toExportError, type Seal } from './output';
import { FENCE_LANG, contentOf, defaultKind, fileBody, fileNameOf, isDone, mdCode, mdFence, mdInline, metaFields, nestedMarkdown, notDoneWord, ownFile, pagedContent, titleOf, yamlLines, type OwnFile } from './render';
import { jsonLine } from '../../shared/json';
import { hintOn, REST_AGAIN, type Surface } from '../../shared/hints';
import { SPREADSHEET_SAFE } from './csv';

export interface Writer {
  add(t: TargetStatus): Promise<void>;
  /**
   * Seals the output; the number of files and bytes it holds, and its path when not the one
   * it was opened with. Throws the signal's AbortError, its output unsealed, when it is aborted
   * before the seal.
   */
  finish(signal?: AbortSignal): Promise<{ files: number; bytes: number; path?: string }>;
  abort(): Promise<void>;
}

export interface WriterOptions {
  includeFailed: boolean;
  includeMeta: boolean;
  fileKind?: 'md' | 'txt' | 'json';
  /** The job was still running when the export read it: the targets it had not reached are still to come. */
  stillRunning?: boolean;
  /** Whose words the hints are in (ExportOptions.surface); as stored when not given. */
  surface?: Surface;
}

export const MANIFEST = 'manifest.jsonl';
export const FAILED_LIST = 'failed.txt';

/** A target's reason as exports print it: the stored one when failed, else '' (done, or never run). */
export function reasonOfTarget(t: TargetStatus): string {
  return t.status === 'failed' ? t.reason || 'internal' : '';
}

const NOT_REACHED = 'the job had not reached this target when it was exported';

/**
 * What a target the job had not reached says of itself. Of a job still running it is still
 * to come: "Run the rest again" there would fetch it twice.
 */
function notReached(o: Pick<WriterOptions, 'stillRunning' | 'surface'>): { error: string; hint: string } {
  return { error: NOT_REACHED, hint: o.stillRunning ? 'The job is still running: export again when it has finished.' : `Run ${REST_AGAIN[o.surface ?? 'app']}.` };
}

/** What a target that is not done says of itself: its failure, or that the job had not reached it. */
function notFetchedOr(t: TargetStatus, o: Pick<WriterOptions, 'stillRunning' | 'surface'>): { error: string; hint: string } {
  // Cut short, its hint is the sentence that says so; its error is a code word ("cancelled", "restart").
  if (t.status === 'failed') return rowFailure(t, o.surface);
  return notReached(o);
}

/**
 * A target's error and hint in the listings (manifest, JSONL, CSV): as stored, and for one the
 * job had not reached (still `pending` in its status column) what the files say of it. A
 * cancelled job's summary opened in a spreadsheet showed such rows as "pending" with nothing
 * after, which read as still to come.
 */
const listedError = (t: TargetStatus, o: Pick<WriterOptions, 'stillRunning' | 'surface'>): { error: string; hint: string } =>
  t.status === 'done' || t.status === 'failed' ? { error: t.error, hint: o.surface ? hintOn(o.surface, t.hint) : t.hint } : notReached(o);

/**
 * What a target asked for beyond its URL, as a list line writes it ('pages=3 grep=quay'; ''
 * for none). One URL asked four ways (whole, a grep, a question, some pages) made four rows
 * and sections that nothing told apart, and a question's passages came without the question.
 */
export const askedOf = (t: Pick<TargetStatus, 'url' | 'options'>): string => formatOptionsLine({ url: '', options: t.options }).trim();

/** One line of manifest.jsonl. */
export interface ManifestLine {
  idx: number;
  url: string;
  /** The target's options, as the list gave them ({} for none). */
  options: Options;
  status: TargetStatus['status'];
  /** The target's file in the folder, or null when it has none (not done, and failed ones not included). */
  file: string | null;
  bytes: number;
  error: string;
  hint: string;
  /** Why a failed target failed (SPEC §5.9); '' when done. */
  reason: string;
  /**
   * What may be wrong with a done target's result (thin, no_text, no_match…), as the CSV's
   * warnings column and every other listing say; [] otherwise.
   */
  warnings: string[];
}

/** A done target's result when there is nothing in it, else undefined. */
const emptyOf = (t: TargetStatus): Result | undefined => (t.result && isEmptyResult(t.result) ? t.result : undefined);

/** The folder layout, into a folder or a zip (the sink decides). */
export async function layoutWriter(sink: LayoutSink, o: WriterOptions): Promise<Writer> {
  const taken = new Set([fileNameKey(MANIFEST), fileNameKey(FAILED_LIST)]);
  let manifest: OutFile;
  let failedList: OutFile;
  try {
    manifest = await sink.openSide(MANIFEST);
    failedList = await sink.openSide(FAILED_LIST);
  } catch (err) {
    await sink.abort();
    throw err;
  }
  let files = 2;
  return {
    async add(t) {
      if (isDone(t)) {
        const own: OwnFile = o.fileKind ? { kind: o.fileKind } : ownFile(t);
        const empty = emptyOf(t);
        // A result with nothing in it (a grep that matched no line, a scanned PDF) was an empty
        // file, or a fence with nothing inside, that said nothing of why: its file says why, and
        // its name says so too ("Ferry fares (no match).txt"), so no one reads it as the page's.
        const name = empty
          ? safeFileName(`${fileNameOf(t)} (${emptyResultLabel(empty)})`, taken, 'txt')
          : safeFileName(fileNameOf(t), taken, own.kind);
        const data = Buffer.from(empty ? `${t.url}\n\n${emptyResultLabel(empty)}: ${emptyResultText(empty)}\n` : fileBody(t, own, o.fileKind !== undefined, o.includeMeta));
        await sink.put(name, data);
        files++;
        const line: ManifestLine = { idx: t.idx, url: t.url, options: canonicalOptions(t.options), status: t.status, file: name, bytes: data.length, error: '', hint: '', reason: '', warnings: resultWarnings(t.result) };
        await manifest.write(`${jsonLine(line)}\n`);
        return;
      }
      // failed.txt lists every target that did not finish, so "run the rest again" is one
      // drop of this file; the manifest lists every target, whatever includeFailed says:
      // a summary that hides failures would contradict "exported 15 targets (1 failed)".
      // Of a job still running, the targets it has not reached are still to come, not left
      // over: listed, a snapshot of a long job had a failed.txt of thousands of URLs that
      // had not failed, and dropping it back into Sift fetched each of them twice.
      if (!(o.stillRunning && (t.status === 'pending' || t.status === 'running'))) await failedList.write(`${formatOptionsLine(t)}\n`);
      let file: string | null = null;
      let bytes = 0;
      if (o.includeFailed) {
        // Asked for: the failed target gets a file of its own saying what went wrong.
        file = safeFileName(`${fileNameOf(t)} (${notDoneWord(t)})`, taken, 'txt');
        const said = notFetchedOr(t, o);
        const data = Buffer.from(`${t.url}\n\n${notDoneWord(t)}${said.error ? `: ${said.error}` : ''}\n${said.hint ? `${said.hint}\n` : ''}`);
        await sink.put(file, data);
        files++;
        bytes = data.length;
      }
      const line: ManifestLine = { idx: t.idx, url: t.url, options: canonicalOptions(t.options), status: t.status, file, bytes, ...listedError(t, o), reason: reasonOfTarget(t), warnings: [] };
      await manifest.write(`${jsonLine(line)}\n`);
    },
    async finish(signal) {
      return { files, ...(await sink.finish(signal)) };
    },
    abort: () => sink.abort(),
  };
}

/** One JSON object per target, failed ones included: {idx, url, options, status, content, meta, error, hint, reason}. */
export async function jsonlWriter(finalPath: string, seal: Seal, o: Pick<WriterOptions, 'stillRunning' | 'surface'> = {}): Promise<Writer> {
  const out = await OutFile.open(partialPath(finalPath), finalPath);
  return {
    async add(t) {
      const done = isDone(t);
      const obj = {
        idx: t.idx,
        url: t.url,
        options: canonicalOptions(t.options),
        status: t.status,
        content: done ? contentOf(t) : null,
        meta: done ? (t.result?.meta ?? {}) : null,
        ...listedError(t, o),
        reason: reasonOfTarget(t),
      };
      await out.write(`${jsonLine(obj)}\n`);
    },
    async finish(signal) {
      await out.close();
      signal?.throwIfAborted();
      return { files: 1, bytes: out.bytes, path: await seal(out.path) };
    },
    async abort() {
      out.destroy();
      await discard(out.path);
    },
  };
}

export const CSV_COLUMNS = ['idx', 'url', 'options', 'status', 'title', 'bytes', 'error', 'hint', 'reason', 'warnings'] as const;

/** A CSV summary of every target, safe to open in a spreadsheet (SPREADSHEET_SAFE). */
export async function csvWriter(finalPath: string, seal: Seal, o: Pick<WriterOptions, 'stillRunning' | 'surface'> = {}): Promise<Writer> {
  const out = await OutFile.open(partialPath(finalPath), finalPath);
  const csv: Stringifier = stringify({ header: true, columns: [...CSV_COLUMNS], ...SPREADSHEET_SAFE });
  let failed: unknown = null;
  csv.on('error', (err) => {
    failed ??= err;
  });
  csv.pipe(out.stream);
  return {
    async add(t) {
      if (failed) throw toExportError(failed, finalPath);
      // A summary lists every target with its status, error and hint.
      const done = isDone(t);
      // warnings: an ok page that may not be what was wanted (thin, no_text), ';'-separated.
      const { error, hint } = listedError(t, o);
      const row = [t.idx, t.url, askedOf(t), t.status, titleOf(t), done ? Buffer.byteLength(contentOf(t)) : 0, error, hint, reasonOfTarget(t), done ? resultWarnings(t.result).join(';') : ''];
      if (!csv.write(row)) await once(csv, 'drain');
      await out.drain();
    },
    async finish(signal) {
      const closed = once(out.stream, 'close');
      csv.end();
      await closed;
      if (failed) throw toExportError(failed, finalPath);
      const { size } = await stat(out.path);
      signal?.throwIfAborted();
      return { files: 1, bytes: size, path: await seal(out.path) };
    },
    async abort() {
      csv.destroy();
      out.destroy();
      await discard(out.path);
    },
  };
}

const targets = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? 'target' : 'targets'}`;

/** "1 failed and 2 not fetched": the targets that are not done, by what became of them. */
function notDoneWords(failed: number, notFetched: number, stillRunning: boolean): string {
  const later = stillRunning ? 'not fetched yet' : 'not fetched';
  return [failed ? `${failed.toLocaleString('en-US')} failed` : '', notFetched ? `${notFetched.toLocaleString('en-US')} ${later}` : ''].filter(Boolean).join(' and ');
}

/**
 * "24 of 25 targets (1 failed, not included)": how many the document holds, and which it
 * leaves out; with the not-done ones included, "25 targets (1 failed)". Included, they read
 * "25 targets" as if every page were there, and a reader had to go through the contents to
 * find the one that failed.
 */
function countLine(count: number, notDone: { failed: number; notFetched: number }, o: Pick<WriterOptions, 'includeFailed' | 'stillRunning'>): string {
  const what = notDoneWords(notDone.failed, notDone.notFetched, o.stillRunning ?? false);
  if (!what) return targets(count);
  // Of a job still running, the document is a snapshot: read later, "2 not fetched" said those pages were given up on.
  const later = o.stillRunning && notDone.notFetched > 0 ? '\n\nThe job was still running when this was exported: export it again when it has finished to have every target.' : '';
  if (o.includeFailed) return `${targets(count)} (${what})${later}`;
  return `${count.toLocaleString('en-US')} of ${targets(count + notDone.failed + notDone.notFetched)} (${what}, not included)${later}`;
}

/**
 * One Markdown file: a title, a table of contents, then each target as a section. The
 * contents and the sections are streamed to two scratch files while targets come in and
 * joined at the end, so the table can come first without holding the job in memory.
 */
export async function combinedMdWriter(finalPath: string, jobId: string, o: WriterOptions, seal: Seal): Promise<Writer> {
  const main = await OutFile.open(partialPath(finalPath), finalPath);
  const toc = await OutFile.open(partialPath(`${finalPath}-toc`), finalPath);
  const body = await OutFile.open(partialPath(`${finalPath}-body`), finalPath);
  let count = 0;
  // The targets that are not done, in the document or not: the count line says how many, or
  // a job of 25 with one that failed read "24 targets" (or "25 targets", the failed one
  // included) and nothing at the top told that a URL was missing.
  const notDone = { failed: 0, notFetched: 0 };
  const scratch = [toc, body];
  return {
    async add(t) {
      const done = isDone(t);
      if (!done) {
        if (notDoneWord(t) === 'failed') notDone.failed++;
        else notDone.notFetched++;
        if (!o.includeFailed) return;
      }
      count++;
      const anchor = `target-${t.idx + 1}`;
      const title = mdInline(titleOf(t)) || mdInline(t.url);
      const empty = done ? emptyOf(t) : undefined;
      const note = empty ? emptyResultLabel(empty) : done ? '' : notDoneWord(t);
      await toc.write(`- [${title}](#${anchor})${note ? ` (${note})` : ''}\n`);
      // Percent-encoding < and > keeps the URL inside its <…> autolink.
      const url = t.url.replace(/</g, '%3C').replace(/>/g, '%3E');
      let section = `<a id="${anchor}"></a>\n\n## ${title}\n\n<${url}>\n\n`;
      const asked = askedOf(t);
      if (asked) section += `Asked with ${mdCode(asked)}\n\n`;
      if (done) {
        if (o.includeMeta) section += `${mdFence(yamlLines(metaFields(t)), 'yaml')}\n`;
        const kind = o.fileKind ?? defaultKind(t);
        // Said in words, as a failure is: an empty fence read as a page with nothing on it.
        if (empty) section += `> **${emptyResultLabel(empty)}**: ${mdInline(emptyResultText(empty))}\n`;
        else section += kind === 'md' ? nestedMarkdown(pagedContent(t, kind), titleOf(t)) : mdFence(pagedContent(t, kind), FENCE_LANG[kind]);
      } else {
        const said = notFetchedOr(t, o);
        section += `> **${notDoneWord(t)}**${reasonOfTarget(t) ? ` (${reasonOfTarget(t)})` : ''}${said.error ? `: ${mdInline(said.error)}` : ''}${said.hint ? `  \n> ${mdInline(said.hint)}` : ''}\n`;
      }
      await body.write(`${section.replace(/\n*$/, '')}\n\n`);
    },
    async finish(signal) {
      await toc.close();
      await body.close();
      await main.write(`# Sift export: job ${mdInline(jobId)}\n\n${countLine(count, notDone, o)}\n\n## Contents\n\n`);
      for await (const chunk of createReadStream(toc.path, { signal })) await main.write(chunk as Buffer);
      await main.write('\n');
      for await (const chunk of createReadStream(body.path, { signal })) await main.write(chunk as Buffer);
      await main.close();
      for (const f of scratch) await discard(f.path);
      signal?.throwIfAborted();
      return { files: 1, bytes: main.bytes, path: await seal(main.path) };
    },
    async abort() {
      for (const f of [main, ...scratch]) {
        f.destroy();
        await discard(f.path);
      }
    },
  };
}
