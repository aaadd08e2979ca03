import type { StateCreator } from 'zustand';
import type { ExportFormatName, Res } from '../../../shared/ipc/contract';
import type { UserError } from '../lib/errors';
import type { State } from './index';

export interface ExportRun {
  jobId: string;
  token: string;
  path: string;
  format: ExportFormatName;
  done: number;
  total: number;
  /** stopping: the user asked to stop, the export has not ended yet; stopped: it ended so, writing nothing. */
  state: 'running' | 'stopping' | 'done' | 'stopped' | 'failed';
  summary?: Res<'exportJob'>;
  error?: UserError;
}

export interface ExportSlice {
  /** The job whose export dialog is open. */
  exportFor: string | null;
  exportRun: ExportRun | null;
  openExport(jobId: string | null): void;
  startExport(run: Omit<ExportRun, 'done' | 'total' | 'state'>): void;
  exportProgressed(token: string, done: number, total: number): void;
  exportFinished(token: string, summary: Res<'exportJob'>): void;
  exportFailed(token: string, error: UserError): void;
  exportStopping(token: string): void;
}

export const createExportSlice: StateCreator<State, [], [], ExportSlice> = (set) => ({
  exportFor: null,
  exportRun: null,
  openExport: (exportFor) => set((s) => ({ exportFor, exportRun: s.exportRun && isWriting(s.exportRun) ? s.exportRun : null })),
  startExport: (run) => set({ exportRun: { ...run, done: 0, total: 0, state: 'running' } }),
  exportProgressed: (token, done, total) =>
    set((s) => (s.exportRun?.token === token && isWriting(s.exportRun) ? { exportRun: { ...s.exportRun, done, total } } : {})),
  exportFinished: (token, summary) =>
    set((s) =>
      s.exportRun?.token === token ? { exportRun: { ...s.exportRun, state: 'done', summary, done: summary.targets, total: summary.targets } } : {},
    ),
  // The stop the user asked for ends the export with the error `cancelled`: that is no failure.
  exportFailed: (token, error) =>
    set((s) =>
      s.exportRun?.token === token ? { exportRun: { ...s.exportRun, ...(error.code === 'cancelled' ? { state: 'stopped' } : { state: 'failed', error }) } } : {},
    ),
  exportStopping: (token) => set((s) => (s.exportRun?.token === token && s.exportRun.state === 'running' ? { exportRun: { ...s.exportRun, state: 'stopping' } } : {})),
});

/** An export still writing (its stop may have been asked for): the dialog stays open for its end. */
export const isWriting = (run: ExportRun): boolean => run.state === 'running' || run.state === 'stopping';
