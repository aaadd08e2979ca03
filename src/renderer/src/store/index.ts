import { create } from 'zustand';
import { createComposerSlice, type ComposerSlice } from './composer';
import { createDetailSlice, type DetailSlice } from './detail';
import { createExportSlice, type ExportSlice } from './exports';
import { createJobsSlice, type JobsSlice } from './jobs';
import { createSearchSlice, type SearchSlice } from './search';
import { createSettingsFormSlice, type SettingsFormSlice } from './settings-form';
import { createViewSlice, type ViewSlice } from './view';

export type State = JobsSlice & DetailSlice & ViewSlice & ComposerSlice & ExportSlice & SearchSlice & SettingsFormSlice;

/**
 * The one store. Actions are plain functions on it, so the IPC events (sync.ts) feed it
 * directly with useStore.getState().applyJob(...) — no component has to be mounted.
 */
export const useStore = create<State>()((...a) => ({
  ...createJobsSlice(...a),
  ...createDetailSlice(...a),
  ...createViewSlice(...a),
  ...createComposerSlice(...a),
  ...createExportSlice(...a),
  ...createSearchSlice(...a),
  ...createSettingsFormSlice(...a),
}));
