import { useEffect, useState } from 'react';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../../../../shared/settings';
import { toUserError, type UserError } from '../../lib/errors';
import { ErrorMessage } from '../common/ErrorMessage';

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
      { key: 'ttlHours', label: 'Keep finished jobs for', unit: 'hours', help: 'Opening a job keeps it longer.' },
    ],
  },
  {
    title: 'Fetching',
    fields: [
      { key: 'deadlineSeconds', label: 'Time per URL', unit: 'seconds', help: 'A URL that takes longer fails.' },
      { key: 'connectTimeoutSeconds', label: 'Connect timeout', unit: 'seconds', help: 'Waiting for a server to answer at all.' },
      { key: 'maxBodyMiB', label: 'Largest download', unit: 'MiB', step: 1, help: 'Counted after decompression.' },
      { key: 'maxResultMiB', label: 'Largest result', unit: 'MiB', step: 0.0625, help: 'A longer extracted result fails as too long.' },
      { key: 'maxPdfPages', label: 'PDF pages without a selection', help: 'Longer PDFs need a pages= option.' },
    ],
  },
];

/** One field's error from the shared schema, so the user hears it before saving. */
function fieldError(key: keyof Settings, value: unknown): string | null {
  const r = SettingsSchema.shape[key].safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? 'not valid');
}

export function SettingsPanel(): React.JSX.Element {
  const [saved, setSaved] = useState<Settings | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [hosts, setHosts] = useState('');
  const [loadError, setLoadError] = useState<UserError | null>(null);
  const [saveError, setSaveError] = useState<UserError | null>(null);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle');

  useEffect(() => {
    window.sift.getSettings().then(
      (s) => {
        setSaved(s);
        setDraft(s);
        setHosts(s.allowHosts.join('\n'));
      },
      (err: unknown) => setLoadError(toUserError(err)),
    );
  }, []);

  if (loadError) return <section className="panel"><ErrorMessage error={loadError} /></section>;
  if (!draft || !saved) return <section className="panel"><p className="muted">Loading settings…</p></section>;

  const allowHosts = hosts.split(/[\s,]+/).map((h) => h.trim()).filter(Boolean);
  const next: Settings = { ...draft, allowHosts };
  const errors = Object.fromEntries(
    (Object.keys(next) as (keyof Settings)[]).map((k) => [k, fieldError(k, next[k])]).filter(([, e]) => e),
  ) as Partial<Record<keyof Settings, string>>;
  const changed = (Object.keys(next) as (keyof Settings)[]).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(saved[k]));
  const invalid = Object.keys(errors).length > 0;

  const save = async (): Promise<void> => {
    setStatus('saving');
    setSaveError(null);
    const patch = Object.fromEntries(changed.map((k) => [k, next[k]])) as Partial<Settings>;
    try {
      const s = await window.sift.setSettings({ settings: patch });
      setSaved(s);
      setDraft(s);
      setHosts(s.allowHosts.join('\n'));
      setStatus('saved');
    } catch (err) {
      setSaveError(toUserError(err));
      setStatus('idle');
    }
  };

  const set = <K extends keyof Settings>(k: K, v: Settings[K]): void => {
    setDraft({ ...draft, [k]: v });
    setStatus('idle');
  };

  return (
    <section className="panel settings" data-testid="settings-panel">
      <h2>Settings</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!invalid && changed.length) void save();
        }}
      >
        {GROUPS.map((g) => (
          <fieldset key={g.title}>
            <legend>{g.title}</legend>
            {g.fields.map((f) => (
              <label key={f.key} className="field setting">
                <span>{f.label}</span>
                <span className="setting-input">
                  <input
                    type="number"
                    step={f.step ?? 1}
                    value={Number.isNaN(draft[f.key]) ? '' : draft[f.key]}
                    onChange={(e) => set(f.key, e.target.value === '' ? Number.NaN : Number(e.target.value))}
                    aria-invalid={!!errors[f.key]}
                    data-testid={`setting-${f.key}`}
                  />
                  {f.unit && <span className="muted">{f.unit}</span>}
                </span>
                {errors[f.key] ? <span className="field-error">{errors[f.key]}</span> : <span className="muted">{f.help}</span>}
              </label>
            ))}
          </fieldset>
        ))}
        <fieldset>
          <legend>Network</legend>
          <label className="check">
            <input type="checkbox" checked={draft.allowPrivate} onChange={(e) => set('allowPrivate', e.target.checked)} data-testid="setting-allowPrivate" />
            Allow private and loopback addresses (your intranet, localhost)
          </label>
          <label className="field">
            <span>Hosts allowed even when private addresses are blocked</span>
            <textarea rows={3} value={hosts} onChange={(e) => { setHosts(e.target.value); setStatus('idle'); }} placeholder="wiki.internal.example, one per line" data-testid="setting-allowHosts" />
            {errors.allowHosts && <span className="field-error">{errors.allowHosts}</span>}
          </label>
          <label className="field">
            <span>User agent</span>
            <input type="text" value={draft.userAgent} onChange={(e) => set('userAgent', e.target.value)} aria-invalid={!!errors.userAgent} data-testid="setting-userAgent" />
            {errors.userAgent && <span className="field-error">{errors.userAgent}</span>}
          </label>
          <label className="field">
            <span>Archive service (for "recover")</span>
            <input type="text" value={draft.archiveService} onChange={(e) => set('archiveService', e.target.value)} placeholder="empty: never look up archived copies" aria-invalid={!!errors.archiveService} data-testid="setting-archiveService" />
            {errors.archiveService ? <span className="field-error">{errors.archiveService}</span> : <span className="muted">Default: {DEFAULT_SETTINGS.archiveService}</span>}
          </label>
        </fieldset>
        {saveError && <ErrorMessage error={saveError} testId="settings-error" />}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={invalid || changed.length === 0 || status === 'saving'} data-testid="settings-save">
            {status === 'saving' ? 'Saving…' : 'Save'}
          </button>
          <button type="button" disabled={changed.length === 0} onClick={() => { setDraft(saved); setHosts(saved.allowHosts.join('\n')); setSaveError(null); }}>
            Undo changes
          </button>
          <span className="muted" role="status" data-testid="settings-status">
            {invalid ? 'Fix the fields marked in red to save.' : status === 'saved' ? 'Saved. New jobs use these settings.' : changed.length ? `${changed.length} unsaved change${changed.length === 1 ? '' : 's'}` : ''}
          </span>
        </div>
      </form>
    </section>
  );
}
