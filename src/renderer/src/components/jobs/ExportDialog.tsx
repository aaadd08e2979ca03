import { useEffect, useRef, useState } from 'react';
import type { ExportFormatName } from '../../../../shared/ipc/contract';
import { useStore } from '../../store';
import { exportJob, stopExport } from '../../store/actions';
import { isWriting } from '../../store/exports';
import { exportSummaryParts, exportSummaryText, includeFailedLabel } from '../../lib/exports';
import { failedCount, unfinishedCount } from '../../lib/jobs';
import { ErrorMessage } from '../common/ErrorMessage';
import { FocusSafeButton } from '../common/FocusSafeButton';
import { PathText } from '../common/PathText';
import { useRestoreFocus } from '../../lib/useRestoreFocus';

/**
 * `meta`: what "include meta" adds in the format; none where the format has no room for it or
 * always has it. `lists`: a format that lists every target whatever "include failed" says (its
 * writer takes no such choice), in which the box was shown and changed nothing.
 */
const FORMATS: { value: ExportFormatName; label: string; note: string; meta?: string; lists?: string }[] = [
  { value: 'md', label: 'Folder of Markdown files', note: 'One .md file per URL, plus manifest.jsonl and failed.txt.', meta: 'front matter in each Markdown file' },
  { value: 'txt', label: 'Folder of text files', note: 'One .txt file per URL.' },
  { value: 'json', label: 'Folder of JSON files', note: 'One .json file per URL with content and meta.', meta: 'a "meta" field in each file' },
  { value: 'jsonl', label: 'One JSONL file', note: 'One JSON object per line, in list order, each with its meta.', lists: 'line' },
  { value: 'csv', label: 'CSV summary', note: 'One row per URL: status, title, size, error.', lists: 'row' },
  { value: 'combined', label: 'One combined Markdown file', note: 'Every result in one document with a table of contents.', meta: 'a YAML block under each result' },
  { value: 'zip', label: 'Zip archive', note: 'The folder layout, in one .zip file.', meta: 'front matter in its Markdown files' },
];

export function ExportDialog({ jobId }: { jobId: string }): React.JSX.Element {
  const run = useStore((s) => (s.exportRun?.jobId === jobId ? s.exportRun : null));
  const failed = useStore((s) => (s.jobs[jobId] ? failedCount(s.jobs[jobId]) : 0));
  // Never reached or cut short (a cancelled or interrupted job's rest): the export counts them apart.
  const notFetched = useStore((s) => (s.jobs[jobId] ? unfinishedCount(s.jobs[jobId]) : 0));
  const close = useStore((s) => s.openExport);
  const [format, setFormat] = useState<ExportFormatName>('md');
  const [includeFailed, setIncludeFailed] = useState(false);
  const [includeMeta, setIncludeMeta] = useState(true);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const chosen = FORMATS.find((f) => f.value === format);

  useRestoreFocus();
  useEffect(() => {
    const d = dialogRef.current;
    if (d && !d.open) d.showModal();
  }, []);

  const running = run !== null && isWriting(run);
  const pct = run && run.total > 0 ? Math.round((100 * run.done) / run.total) : 0;

  return (
    <dialog
      ref={dialogRef}
      className="export-dialog"
      aria-labelledby="export-title"
      data-testid="export-dialog"
      onCancel={(e) => {
        // Esc closes the dialog, never the job; while writing, the dialog stays to show the end.
        e.preventDefault();
        if (!running) close(null);
      }}
    >
      <h2 id="export-title">Export results</h2>
      <fieldset disabled={running}>
        <label className="field">
          <span>Format</span>
          <select value={format} onChange={(e) => setFormat(e.target.value as ExportFormatName)} data-testid="export-format">
            {FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
          <span className="muted">{chosen?.note}</span>
        </label>
        {/* A job with nothing failed or left has nothing for this choice to take in. */}
        {failed + notFetched > 0 &&
          (chosen?.lists ? (
            <p className="muted listing-note" data-testid="export-listing-note">
              Every target has a {chosen.lists} here, each failed or unfetched one with why.
            </p>
          ) : (
            <>
              <label className="check">
                <input type="checkbox" checked={includeFailed} onChange={(e) => setIncludeFailed(e.target.checked)} data-testid="export-include-failed" />
                {includeFailedLabel(failed, notFetched)}
              </label>
              <p className="muted listing-note" data-testid="export-listing-note">
                The manifest, the CSV summary and the JSONL file always list every target, with its error.
              </p>
            </>
          ))}
        {chosen?.meta && (
          <label className="check">
            <input type="checkbox" checked={includeMeta} onChange={(e) => setIncludeMeta(e.target.checked)} data-testid="export-include-meta" />
            Include meta ({chosen.meta})
          </label>
        )}
      </fieldset>
      {run && (
        <div className="export-status" data-testid="export-status" data-state={run.state}>
          <p className="muted">To <PathText path={run.path} /></p>
          {running && (
            <>
              <progress max={run.total || 1} value={run.done} aria-label="Export progress" data-testid="export-progress" />
              <span>
                {run.state === 'stopping' ? 'Stopping… ' : ''}
                {run.total > 0 ? `${run.done.toLocaleString()} of ${run.total.toLocaleString()} (${pct}%)` : 'Starting…'}
              </span>
            </>
          )}
          {run.state === 'stopped' && (
            <p data-testid="export-stopped">Export stopped. Nothing was written.</p>
          )}
          {run.state === 'done' && run.summary && (
            <p data-testid="export-result">
              {exportSummaryParts(run.summary).head} to <PathText path={run.summary.path} />
              {exportSummaryParts(run.summary).tail}
            </p>
          )}
          {run.state === 'failed' && run.error && <ErrorMessage error={run.error} testId="export-error" />}
        </div>
      )}
      {/* Kept in the dialog from its opening, so a screen reader hears how the export ended (a
          region that appears with its text is often not read); a failure is the alert above. */}
      <p className="visually-hidden" role="status" data-testid="export-announce">
        {run?.state === 'done' && run.summary ? exportSummaryText(run.summary) : run?.state === 'stopped' ? 'Export stopped. Nothing was written.' : running ? 'Exporting…' : ''}
      </p>
      <div className="dialog-actions">
        {running ? (
          // Stops the writing, not the dialog: it stays to say how the export ended.
          <FocusSafeButton onClick={() => void stopExport(run.token)} unavailable={run.state === 'stopping'} data-testid="export-stop">
            Stop export
          </FocusSafeButton>
        ) : (
          <button type="button" onClick={() => close(null)} data-testid="export-close">
            {run?.state === 'done' || run?.state === 'stopped' ? 'Close' : 'Cancel'}
          </button>
        )}
        <FocusSafeButton className="primary" unavailable={running} onClick={() => void exportJob(jobId, format, includeFailed, includeMeta)} data-testid="export-start">
          {running ? 'Exporting…' : run?.state === 'done' ? 'Export again…' : 'Choose where and export…'}
        </FocusSafeButton>
      </div>
    </dialog>
  );
}
