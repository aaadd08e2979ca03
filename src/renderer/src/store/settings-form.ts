import type { StateCreator } from 'zustand';
import type { Settings } from '../../../shared/settings';
import type { State } from './index';

/** The Settings form as the user left it: its values and the allowed hosts as typed. */
export interface SettingsForm {
  draft: Settings;
  hosts: string;
}

/**
 * Kept here, not in the panel: the panel is unmounted when the user opens another view, and
 * its unsaved changes went with it without a word (three fields changed, a look at a job,
 * back to Settings: all three gone).
 */
export interface SettingsFormSlice {
  settingsForm: SettingsForm | null;
  keepSettingsForm(form: SettingsForm | null): void;
}

export const createSettingsFormSlice: StateCreator<State, [], [], SettingsFormSlice> = (set) => ({
  settingsForm: null,
  keepSettingsForm: (settingsForm) => set({ settingsForm }),
});
