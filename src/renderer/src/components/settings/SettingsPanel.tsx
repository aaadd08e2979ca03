import { useEffect, useState } from 'react';
import { DEFAULT_SETTINGS, type Settings } from '../../../../shared/settings';
import { allowHostsError, crossFieldErrors, parseAllowHosts, settingError } from '../../lib/settings-form';
import { toUserError, type UserError } from '../../lib/errors';
import { ErrorMessage } from '../common/ErrorMessage';
import { useStore } from '../../store';
import { FocusSafeButton } from '../common/FocusSafeButton';
import type { BrowserInfoView } from '../../../../shared/ipc/contract';
import { RENDER_MODES, type RenderMode } from '../../../../shared/types';
import { readableHost } from '../../../../shared/readable-url';

type NumberKey = { [K in keyof Settings]: Settings[K] extends number ? K : never }[keyof Settings];

interface NumberField {
  key: NumberKey;
  label: string;
  unit?: string;
  step?: number;
  help: string;
}

const GROUPS: { title: string; fields: NumberField[] }[] = [
  {
    title: 'Jobs',
    fields: [
      { key: 'targetsPerJob', label: 'URLs per job', help: 'A longer list is refused; split it.' },
      { key: 'jobsPerCaller', label: 'Live jobs at once (this app)', help: 'Jobs of yours that may be queued or running together.' },
      { key: 'jobsTotal', label: 'Live jobs at once (all)', help: 'Queued or running together, however they were started.' },
      { key: 'workers', label: 'Jobs fetching in parallel', help: 'Each job fetches one URL at a time.' },
      { key: 'ttlHours', label: 'Keep finished jobs for', unit: 'hours', help: 'Counted from a job’s end, or from when you last open it: a job that ended before a change keeps its old time until opened.' },
    ],
  },
  {
    title: 'Fetching',
    fields: [
      { key: 'deadlineSeconds', label: 'Time per URL', unit: 'seconds', help: 'A URL that takes longer fails.' },
      { key: 'connectTimeoutSeconds', label: 'Connect timeout', unit: 'seconds', help: 'Waiting for a server to answer at all.' },
      { key: 'maxBodyMiB', label: 'Largest download', unit: 'MiB', step: 1, help: 'Counted after decompression.' },
      { key: 'maxResultMiB', label: 'Largest result', unit: 'MiB', step: 0.0625, help: 'A longer extracted result fails as too long.' },
      { key: 'maxPdfPages', label: 'PDF pages without a selection', help: 'Longer PDFs need pages chosen, in “PDF pages” or by pages= on a URL’s line.' },
      { key: 'jqSeconds', label: 'Time a jq program or grep pattern may run', unit: 'seconds', help: 'A program, or a pattern on one page, still running then is stopped: most take a few seconds.' },
    ],
  },
  {
    title: 'Pages that need JavaScript',
    fields: [
      { key: 'renderBudgetSeconds', label: 'Time a page may run', unit: 'seconds', help: 'Then Sift takes what the page shows; a page that never yields fails.' },
      { key: 'renderPages', label: 'Pages rendering at once', help: 'Each one is a browser tab; they count toward the fetches in flight.' },
    ],
  },
];

const RENDER_GROUP = GROUPS[2] as (typeof GROUPS)[number];

const RENDER_HELP: Record<RenderMode, string> = {
  auto: 'Run a page’s JavaScript only when its HTML holds no article (an app shell).',
  always: 'Run every page’s JavaScript: slower, for sites that build everything in the browser.',
  never: 'Never run JavaScript: app shells fail as “needs JavaScript”.',
};

/** Which browser renders pages, or why none can and what to do. */
function BrowserStatus({ info }: { info: BrowserInfoView | null | 'error' }): React.JSX.Element {
  if (info === null) return <p className="muted" data-testid="render-browser">Looking for a browser…</p>;
  if (info === 'error') return <p className="field-error" data-testid="render-browser">Sift could not tell which browser it would use.</p>;
  if (info.ok) return <p className="muted" data-testid="render-browser">Browser: {info.name}{info.path && info.path !== 'built in' ? ` (${info.path})` : ''}</p>;
  return (
    <p className="field-error" data-testid="render-browser">
      No browser: {info.why}. {info.hint}
    </p>
  );
}

const UNITS: Partial<Record<keyof Settings, string>> = Object.fromEntries(GROUPS.flatMap((g) => g.fields.map((f) => [f.key, f.unit])));

const numberLabels = (g: (typeof GROUPS)[number]): Record<string, string> => Object.fromEntries(g.fields.map((f) => [f.key, f.label]));

/** Each field's label as the form shows it, in the form's order, for the status that names the fields to fix. */
const LABELS = {
  ...numberLabels(GROUPS[0]!),
  ...numberLabels(GROUPS[1]!),
  render: 'Run a page’s JavaScript',
  ...numberLabels(RENDER_GROUP),
  chromiumPath: 'Browser for the command line',
  allowPrivate: 'Allow private and loopback addresses',
  allowHosts: 'Hosts allowed even when private addresses are blocked',
  userAgent: 'User agent',
  archiveService: 'Archive service',
} as Record<keyof Settings, string>;
const FORM_ORDER = Object.keys(LABELS) as (keyof Settings)[];

/** The ids of a field's label, unit and note (its help or its error), for the aria-* that tie them to the field. */
const ids = (key: keyof Settings): { label: string; unit: string; note: string } => ({ label: `setting-${key}-label`, unit: `setting-${key}-unit`, note: `setting-${key}-note` });

/**
 * A field named by its label (and unit) alone, its error or help as its description. Inside its
 * <label> the field was named by the label's whole text: a screen reader read "Keep finished
 * jobs for hours At least 1 hour." as the field's name, and nothing said it was a problem
 * beyond "invalid".
 */
function fieldA11y(key: keyof Settings, error: string | undefined, o: { unit?: boolean; help?: boolean } = {}): Record<string, string | boolean | undefined> {
  const id = ids(key);
  return {
    'aria-labelledby': o.unit ? `${id.label} ${id.unit}` : id.label,
    'aria-describedby': error || o.help ? id.note : undefined,
    'aria-invalid': !!error,
  };
}

/** Under a field: its error when it has one, else its help. */
function FieldNote({ id, error, help }: { id: keyof Settings; error: string | undefined; help?: string }): React.JSX.Element | null {
  if (error) return <span className="field-error" id={ids(id).note}>{error}</span>;
  return help ? <span className="muted" id={ids(id).note}>{help}</span> : null;
}

/**
 * What stands between the user and Save, by the fields' names: "Fix the fields marked in red"
 * told a screen-reader user (and anyone who does not tell red apart) nothing of where to look.
 */
function fixToSave(keys: (keyof Settings)[]): string {
  const names = [...keys].sort((a, b) => FORM_ORDER.indexOf(a) - FORM_ORDER.indexOf(b)).map((k) => `“${LABELS[k]}”`);
  return names.length === 1 ? `Fix ${names[0]} to save.` : `Fix ${names.length} fields to save: ${names.join(', ')}.`;
}

/**
 * The allowed hosts as the user typed them: an IDN name in its own letters (bücher.example, not
 * xn--bcher-kva.example), a look-alike one left encoded. parseAllowHosts encodes them again, so
 * the form reads back unchanged.
 */
function hostsText(hosts: string[]): string {
  return hosts.map(readableHost).join('\n');
}

export function SettingsPanel(): React.JSX.Element {
  const [saved, setSaved] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [hosts, setHosts] = useState('');
  const [loadError, setLoadError] = useState<UserError | null>(null);
  const [saveError, setSaveError] = useState<UserError | null>(null);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle');
  const [browser, setBrowser] = useState<BrowserInfoView | null | 'error'>(null);

  useEffect(() => {
    window.sift.getSettings().then(
      (s) => {
        setSaved(s);
        // The changes the user made before opening another view are still theirs to save.
        const kept = useStore.getState().settingsForm;
        setDraft(kept?.draft ?? s);
        setHosts(kept?.hosts ?? hostsText(s.allowHosts));
      },
      (err: unknown) => setLoadError(toUserError(err)),
    );
  }, []);
  useEffect(() => {
    if (draft) useStore.getState().keepSettingsForm({ draft, hosts });
  }, [draft, hosts]);
  // Asked again after a save: a new browser path may find one, or lose it.
  useEffect(() => {
    window.sift.browserInfo().then(setBrowser, () => setBrowser('error'));
  }, [saved?.chromiumPath]);

  if (loadError) return <section className="panel"><ErrorMessage error={loadError} /></section>;
  if (!draft || !saved) return <section className="panel"><p className="muted">Loading settings…</p></section>;

  const { hosts: allowHosts, bad: badHosts, ranges } = parseAllowHosts(hosts);
  const next: Settings = { ...draft, allowHosts };
  // Errors the user hears before saving, in the form's words (lib/settings-form.ts).
  const errors = Object.fromEntries(
    (Object.keys(next) as (keyof Settings)[]).map((k) => [k, settingError(k, next[k], UNITS[k])]).filter(([, e]) => e),
  ) as Partial<Record<keyof Settings, string>>;
  for (const [k, e] of Object.entries(crossFieldErrors(next)) as [keyof Settings, string][]) errors[k] ??= e;
  const hostsError = allowHostsError(badHosts, ranges);
  if (hostsError && !errors.allowHosts) errors.allowHosts = hostsError;
  const differs = (a: Settings, b: Settings): (keyof Settings)[] => (Object.keys(a) as (keyof Settings)[]).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  const changed = differs(next, saved);
  const atDefaults = differs(next, DEFAULT_SETTINGS).length === 0;
  const invalid = Object.keys(errors).length > 0;

  const save = async (): Promise<void> => {
    setStatus('saving');
    setSaveError(null);
    const patch = Object.fromEntries(changed.map((k) => [k, next[k]])) as Partial<Settings>;
    try {
      const s = await window.sift.setSettings({ settings: patch });
      setSaved(s);
      setDraft(s);
      setHosts(hostsText(s.allowHosts));
      setStatus('saved');
    } catch (err) {
      setSaveError(toUserError(err));
      setStatus('idle');
    }
  };

  // Into the form, not saved: the user sees what would change, and Undo takes it back.
  const showSettings = (s: Settings): void => {
    setDraft(s);
    setHosts(hostsText(s.allowHosts));
    setSaveError(null);
    setStatus('idle');
  };

  const set = <K extends keyof Settings>(k: K, v: Settings[K]): void => {
    setDraft({ ...draft, [k]: v });
    setStatus('idle');
  };

  const numberField = (f: NumberField): React.JSX.Element => (
    <label key={f.key} className="field setting">
      <span id={ids(f.key).label}>{f.label}</span>
      <span className="setting-input">
        <input
          type="number"
          step={f.step ?? 1}
          value={Number.isNaN(draft[f.key]) ? '' : draft[f.key]}
          onChange={(e) => set(f.key, e.target.value === '' ? Number.NaN : Number(e.target.value))}
          {...fieldA11y(f.key, errors[f.key], { unit: !!f.unit, help: true })}
          data-testid={`setting-${f.key}`}
        />
        {f.unit && <span className="muted" id={ids(f.key).unit}>{f.unit}</span>}
      </span>
      <FieldNote id={f.key} error={errors[f.key]} help={f.help} />
    </label>
  );

  return (
    <section className="panel settings" data-testid="settings-panel">
      <h2>Settings</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!invalid && changed.length && status !== 'saving') void save();
        }}
      >
        {GROUPS.filter((g) => g !== RENDER_GROUP).map((g) => (
          <fieldset key={g.title}>
            <legend>{g.title}</legend>
            {g.fields.map(numberField)}
          </fieldset>
        ))}
        <fieldset data-testid="settings-render">
          <legend>Running JavaScript</legend>
          <label className="field setting">
            <span id={ids('render').label}>Run a page’s JavaScript</span>
            <select value={draft.render} onChange={(e) => set('render', e.target.value as RenderMode)} {...fieldA11y('render', errors.render, { help: true })} data-testid="setting-render">
              {RENDER_MODES.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
            <FieldNote id="render" error={errors.render} help={`${RENDER_HELP[draft.render]} A list line’s render= wins.`} />
          </label>
          {RENDER_GROUP.fields.map(numberField)}
          <BrowserStatus info={browser} />
          <label className="field">
            <span id={ids('chromiumPath').label}>Browser for the command line</span>
            <input type="text" value={draft.chromiumPath} onChange={(e) => set('chromiumPath', e.target.value)} placeholder="empty: Chromium or Chrome where it is usually installed" {...fieldA11y('chromiumPath', errors.chromiumPath, { help: true })} data-testid="setting-chromiumPath" />
            <FieldNote id="chromiumPath" error={errors.chromiumPath} help="A Chromium or Chrome executable. The app itself uses its own built-in Chromium." />
          </label>
        </fieldset>
        <fieldset>
          <legend>Network</legend>
          <label className="check">
            <input type="checkbox" checked={draft.allowPrivate} onChange={(e) => set('allowPrivate', e.target.checked)} data-testid="setting-allowPrivate" />
            Allow private and loopback addresses (your intranet, localhost)
          </label>
          <label className="field">
            <span id={ids('allowHosts').label}>Hosts allowed even when private addresses are blocked</span>
            <textarea rows={3} value={hosts} onChange={(e) => { setHosts(e.target.value); setStatus('idle'); }} placeholder="wiki.internal.example" {...fieldA11y('allowHosts', errors.allowHosts, { help: true })} data-testid="setting-allowHosts" />
            <FieldNote id="allowHosts" error={errors.allowHosts} help="Names or addresses, one a line or separated by commas; a name that starts with a dot (.corp.example) allows its subdomains too. Other private addresses stay blocked." />
          </label>
          <label className="field">
            <span id={ids('userAgent').label}>User agent</span>
            <input type="text" value={draft.userAgent} onChange={(e) => set('userAgent', e.target.value)} {...fieldA11y('userAgent', errors.userAgent, { help: true })} data-testid="setting-userAgent" />
            <FieldNote id="userAgent" error={errors.userAgent} help="The name Sift gives itself to every site it fetches from. Some sites refuse names they do not know." />
          </label>
          <label className="field">
            <span id={ids('archiveService').label}>Archive service (for "recover")</span>
            <input type="text" value={draft.archiveService} onChange={(e) => set('archiveService', e.target.value)} placeholder="empty: never look up archived copies" {...fieldA11y('archiveService', errors.archiveService, { help: true })} data-testid="setting-archiveService" />
            <FieldNote id="archiveService" error={errors.archiveService} help={`Where “Recover from an archive when a page is gone” looks for a copy of a page that is gone. Default: ${DEFAULT_SETTINGS.archiveService}`} />
          </label>
        </fieldset>
        {saveError && <ErrorMessage error={saveError} testId="settings-error" />}
        <div className="form-actions">
          <FocusSafeButton
            type="submit"
            className="primary"
            unavailable={invalid || changed.length === 0 || status === 'saving'}
            why={invalid ? fixToSave(Object.keys(errors) as (keyof Settings)[]) : changed.length === 0 ? 'Nothing to save: no setting has changed.' : ''}
            data-testid="settings-save"
          >
            {status === 'saving' ? 'Saving…' : 'Save'}
          </FocusSafeButton>
          <FocusSafeButton unavailable={changed.length === 0} why="Nothing to undo: no setting has changed." data-testid="settings-undo" onClick={() => showSettings(saved)}>
            Undo changes
          </FocusSafeButton>
          <FocusSafeButton unavailable={atDefaults} why="Every setting is at its default already." data-testid="settings-defaults" onClick={() => showSettings(DEFAULT_SETTINGS)}>
            Restore defaults
          </FocusSafeButton>
          <span className="muted" role="status" data-testid="settings-status">
            {invalid ? fixToSave(Object.keys(errors) as (keyof Settings)[]) : status === 'saved' ? 'Saved. New jobs use these settings.' : changed.length ? `${changed.length} unsaved change${changed.length === 1 ? '' : 's'}` : ''}
          </span>
        </div>
      </form>
    </section>
  );
}
