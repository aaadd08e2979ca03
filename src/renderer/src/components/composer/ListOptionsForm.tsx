import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { MODE_NOTES, MODES, RENDER_MODES, type Mode, type Options, type RenderMode } from '../../../../shared/types';
import { optionsConflict } from '../../../../shared/urllist';
import { useStore } from '../../store';
import { cleanOptions, formOptionsError, formOptionsFields } from '../../store/composer';
import { toUserError } from '../../lib/errors';
import { ErrorMessage } from '../common/ErrorMessage';

const RENDER_NOTES: Record<RenderMode, string> = {
  auto: 'only pages that show nothing without it',
  always: 'every page (slower)',
  never: 'no page (fastest)',
};

// MODE_NOTES are short enough for the select of a 900 px window's composer: the mode's name says the format.

// With a jq program the mode says how jq's output is written: text is jq -r's, strings without quotes.
const JQ_MODE_NOTES: Partial<Record<Mode, string>> = {
  markdown: "jq's output as JSON",
  text: "jq's strings, unquoted",
};

/** What a mode gives beside the other options: jq's output written one way or another, or why it does not go with them. */
function modeNote(o: Options, m: Mode): string {
  const clash = optionsConflict({ ...o, mode: m });
  if (clash) return clash.key === 'jq' ? 'not with a jq program' : 'not with a question';
  return (o.jq?.trim() ? JQ_MODE_NOTES[m] : undefined) ?? MODE_NOTES[m];
}

/** Asks main whether pages / grep / jq are valid, when the user leaves one of them; a value too long is said here. */
async function checkNow(): Promise<void> {
  const { listOptions, setOptionsError } = useStore.getState();
  const opts = cleanOptions(listOptions);
  const long = formOptionsError(opts);
  if (long) {
    setOptionsError(long, formOptionsFields(opts));
    return;
  }
  if (!opts.pages && !opts.grep && !opts.jq) return;
  // The answer is about these options: if the user changed them while it was on its way (the
  // bad grep cleared), it is stale, and an error it brought back would stay on a valid form.
  const current = (): boolean => useStore.getState().listOptions === listOptions;
  try {
    const res = await window.sift.checkOptions({ options: opts });
    if (current()) setOptionsError(res.ok ? null : res.error ? toUserError(res.error) : null, res.fields);
  } catch (err) {
    if (current()) setOptionsError(toUserError(err));
  }
}

const OPTIONS_ERROR_ID = 'options-error';

/** Options for the whole list. A URL's own options in the list win over these. */
export function ListOptionsForm(): React.JSX.Element {
  const { o, set, error, errorFields, errorFocus } = useStore(
    useShallow((s) => ({ o: s.listOptions, set: s.setListOptions, error: s.optionsError, errorFields: s.optionsErrorFields, errorFocus: s.optionsErrorFocus })),
  );
  const fields = useRef<Partial<Record<keyof Options, HTMLElement | null>>>({});
  // A submit the options stopped (Ctrl+Enter in the paste box, say) left the focus where it was,
  // far from the field to fix; it goes to that field, once, so the next keys fix it.
  useEffect(() => {
    if (!errorFocus) return;
    const first = errorFields.map((k) => fields.current[k]).find((el) => el);
    first?.focus();
    useStore.getState().optionsErrorFocused();
  }, [errorFocus, errorFields]);
  // The error is said under the form; the fields it is about are marked invalid and point at it,
  // so a screen reader on the Grep box hears what is wrong with it.
  const marked = (key: keyof Options) => ({
    ref: (el: HTMLElement | null) => {
      fields.current[key] = el;
    },
    ...(error && errorFields.includes(key) ? { 'aria-invalid': true, 'aria-describedby': OPTIONS_ERROR_ID } : {}),
  });
  const text = (key: 'question' | 'pages' | 'grep' | 'jq') => ({
    value: o[key] ?? '',
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set({ [key]: e.target.value || undefined } as Partial<Options>),
    ...marked(key),
    'data-testid': `opt-${key}`,
  });
  return (
    <fieldset className="list-options" data-testid="list-options">
      <legend>Options for every URL</legend>
      <label className="field">
        <span>Extract</span>
        <select
          value={o.mode ?? 'markdown'}
          onChange={(e) => {
            set({ mode: e.target.value === 'markdown' ? undefined : (e.target.value as Mode) });
            void checkNow();
          }}
          {...marked('mode')}
          data-testid="opt-mode"
        >
          {MODES.map((m) => (
            <option key={m} value={m}>
              {m} — {modeNote(o, m)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Run JavaScript</span>
        <select value={o.render ?? ''} onChange={(e) => set({ render: e.target.value ? (e.target.value as RenderMode) : undefined })} data-testid="opt-render">
          <option value="">as in Settings</option>
          {RENDER_MODES.map((m) => (
            <option key={m} value={m}>
              {m} — {RENDER_NOTES[m]}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Question</span>
        <input type="text" placeholder="Keep the passages that answer this" {...text('question')} onBlur={() => void checkNow()} />
      </label>
      <div className="field-row">
        <label className="field">
          <span>PDF pages</span>
          <input type="text" placeholder="1-3,7,10-" {...text('pages')} onBlur={() => void checkNow()} />
        </label>
        <label className="field grow">
          <span>Grep</span>
          <input type="text" placeholder="regex: lines to keep" {...text('grep')} onBlur={() => void checkNow()} />
        </label>
      </div>
      <label className="field">
        <span>jq</span>
        {/* Its label says jq: "jq program for …" did not fit the 1024-wide window's field, cut at ".items[";
            "for JSON documents, …" the 800-wide one's, cut at ".items[].na". */}
        <input type="text" placeholder="for JSON, e.g. .items[].name" {...text('jq')} onBlur={() => void checkNow()} />
      </label>
      <div className="field-row">
        <label className="check">
          <input type="checkbox" checked={o.context ?? false} onChange={(e) => set({ context: e.target.checked || undefined })} data-testid="opt-context" />
          Context around matches
        </label>
        <label className="check">
          <input type="checkbox" checked={o.recover ?? false} onChange={(e) => set({ recover: e.target.checked || undefined })} data-testid="opt-recover" />
          Recover from an archive when a page is gone
        </label>
      </div>
      {error && <ErrorMessage error={error} id={OPTIONS_ERROR_ID} testId="options-error" />}
    </fieldset>
  );
}
